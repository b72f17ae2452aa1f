/**
 * What a site's own rules cost (docs/rules.md#at-run-time), on the local stack, by COUNTING
 * calls and units — no timing:
 *
 * 1. the worker's DynamoDB calls per new event, N batches of 10 distinct users with its rules
 *    source warm, nothing published beside a small published version;
 * 2. the rules reads a function makes in an hour (REWARDS_RULES_REFRESH_SECONDS = 30, one batch
 *    a second on a test clock), nothing published beside three versions published in the hour;
 * 3. the reader's `profile()`: round trips, calls and read units at version 0, a small version
 *    (the 4 built-in types) and a version of 100 types and 200 achievements, when the rules are
 *    not due, due (CURRENT in the BatchGetItem) and due onto a new version (+ the V# GetItem).
 *
 *   npm run bench:rules  (npx tsx bench/rulesCost.ts [--batches 60] [--out bench/results.rules.json])
 *
 * Writes the results JSON and the "site's own rules" section of bench/REPORT.md (bench/rulesReport.ts).
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  type ConsumedCapacity,
  DynamoDBClient,
  GetItemCommand,
  type AttributeValue as RawValue,
} from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { type RulesDocument, rulesVersionKey } from "@rewards/core";
import { createDynamoClient, createRulesSource } from "@rewards/core/aws";
import { createTable, startLocalStack } from "@rewards/local";
import { publishRules } from "@rewards/ops";
import { createReader } from "@rewards/reader";
import { eventBody, lambdaContext, recordAttempts, rulesWith, sqsEvent, sqsRecord } from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import { RULES_REPORT_HEADING, type RulesCostResults, rulesSection } from "./rulesReport";

const { values } = parseArgs({
  options: {
    batches: { type: "string", default: "60" },
    out: { type: "string", default: "bench/results.rules.json" },
    report: { type: "string", default: "bench/REPORT.md" },
  },
});
const BATCHES = Number(values.batches);
const REFRESH_SECONDS = 30;
const credentials = { accessKeyId: "test", secretAccessKey: "test" };
const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (text: string) => process.stderr.write(`${text}\n`);
const iso = (ms: number) => new Date(ms).toISOString();

/** A small version: the 4 built-in types, one value changed. */
const small = (xp: number) =>
  rulesWith((rules) => {
    (rules.types["article.completed"] as { xp: number }).xp = xp;
  });

/** A version of 100 types and 200 achievements (the built-ins' 4 and 6 among them), passing checkRules. */
export function largeRules(extraXp = 0): RulesDocument {
  return rulesWith((rules) => {
    const names: string[] = [];
    for (let i = 0; names.length + 4 < 100; i++) {
      const name = `site.type-${i}`;
      names.push(name);
      rules.types[name] = {
        data: {
          item: { type: "string", minLength: 1, maxLength: 128 },
          minutes: { type: "integer", minimum: 0, maximum: 600 },
        },
        key: ["item"],
        xp: i % 2 === 0 ? 5 + (i % 7) + extraXp : { per: "minutes", each: 1, max: 60 },
        memory: 30 + (i % 60),
      };
    }
    for (let i = 0; rules.achievements.length < 200; i++)
      rules.achievements.push({
        id: `site-badge-${i}`,
        title: `Badge ${i}`,
        description: `Reached ${(i % 5) + 1} of ${names[i % names.length]}`,
        when: { count: names[i % names.length], reaches: (i % 5) + 1 },
      });
  });
}

/** An item's size as DynamoDB bills it (attribute names + values; ≈ for numbers). */
function itemBytes(item: Record<string, RawValue>): number {
  const value = (v: RawValue): number => {
    if (v.S !== undefined) return Buffer.byteLength(v.S);
    if (v.N !== undefined) return Math.ceil(v.N.replace(/^-|\.|^0+/g, "").length / 2) + 1;
    if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
    if (v.B !== undefined) return v.B.length;
    if (v.L !== undefined) return 3 + v.L.reduce((sum, x) => sum + 1 + value(x), 0);
    if (v.M !== undefined)
      return 3 + Object.entries(v.M).reduce((sum, [k, x]) => sum + 1 + Buffer.byteLength(k) + value(x), 0);
    if (v.SS !== undefined) return v.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
    if (v.NS !== undefined) return v.NS.reduce((sum, n) => sum + n.length, 0);
    return 0;
  };
  return Object.entries(item).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + value(v), 0);
}

interface Call {
  command: string;
  startedAt: number;
  endedAt: number;
  /** ConsumedCapacity the answer carried (undefined: the call did not ask). */
  units: number | undefined;
}

/** A raw client noting every command: its interval (for the round-trip depth) and the units reported. */
function notedClient(endpoint: string) {
  const client = new DynamoDBClient({ region: "us-east-1", endpoint, credentials, maxAttempts: 1 });
  const calls: Call[] = [];
  let tick = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const call: Call = {
        command: context.commandName ?? "",
        startedAt: tick++,
        endedAt: 0,
        units: undefined,
      };
      calls.push(call);
      const out = await next(args);
      call.endedAt = tick++;
      const consumed = (out.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      if (consumed !== undefined) {
        const list = Array.isArray(consumed) ? consumed : [consumed];
        call.units = list.reduce((sum, c) => sum + (c.CapacityUnits ?? c.ReadCapacityUnits ?? 0), 0);
      }
      return out;
    },
    { step: "initialize", name: "notedCalls" },
  );
  return { client, calls };
}

/** Calls in sequence: the longest chain of calls each sent after the previous one's answer. */
function depth(calls: readonly Call[]): number {
  const chain = new Map<Call, number>();
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    let longest = 0;
    for (const [before, length] of chain)
      if (before.endedAt < call.startedAt) longest = Math.max(longest, length);
    chain.set(call, longest + 1);
  }
  return Math.max(0, ...chain.values());
}

const stack = await startLocalStack({ tableName: "bench-rules" });
const env: Record<string, string> = { ...stack.env, LOG_LEVEL: "silent" };
const base = new DynamoDBClient({ region: "us-east-1", endpoint: stack.endpoints.dynamodb, credentials });
const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });

async function freshTable(name: string) {
  const tableName = `bench-rules-${name}-${randomUUID().slice(0, 6)}`;
  await createTable(base, tableName);
  return tableName;
}
async function publish(tableName: string, document: RulesDocument, now: number) {
  const result = await publishRules(dynamo, tableName, document, { now });
  if (result.kind !== "published") throw new Error(`not published: ${result.kind}`);
  return result.version;
}
/** A rules read: a GetItem or Query of pk = RULES (what the rules source sends). */
const rulesRead = (attempt: { command: string; body: string }) =>
  /GetItem|Query/.test(attempt.command) && attempt.body.includes('"RULES"');

try {
  // --- 1. the worker's calls per new event, rules warm -----------------------------------------
  const worker: RulesCostResults["worker"] = [];
  for (const published of [false, true]) {
    const tableName = await freshTable(published ? "worker-v1" : "worker-v0");
    let now = Date.now();
    if (published) await publish(tableName, small(25), now);
    const deps = createWorkerDeps({ ...env, TABLE_NAME: tableName });
    const attempts = recordAttempts(deps.dynamo);
    const run = {
      ...deps,
      clock: () => now,
      emitMetrics: () => {},
      rules: createRulesSource({
        dynamo: deps.dynamo,
        tableName,
        refreshSeconds: REFRESH_SECONDS,
        clock: () => now,
      }),
    };
    const batch = async (tag: string) => {
      const bodies = Array.from({ length: 10 }, (_, i) =>
        eventBody("article.completed", { userId: `${tag}-u${i}`, articleSlug: "a" }, { time: iso(now) }),
      );
      const { results } = await processBatch(run, sqsEvent(bodies.map((b) => sqsRecord(b))), lambdaContext());
      if (results.some((r) => r.outcome !== "awarded"))
        throw new Error(`not all awarded: ${JSON.stringify(results)}`);
    };
    // The cold batch reads the rules first; the figures are the warm batches after it.
    await batch("cold");
    const cold = attempts.splice(0);
    for (let i = 0; i < BATCHES; i++) {
      now += 1000; // one batch a second
      await batch(`b${i}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // a read behind the last batch
    const events = BATCHES * 10;
    const count = (p: (a: { command: string; body: string }) => boolean) => attempts.filter(p).length;
    worker.push({
      rules: published ? "version 1 (the 4 built-in types)" : "nothing published (version 0)",
      batches: BATCHES,
      events,
      secondsSimulated: BATCHES,
      transactWriteItemsPerEvent: round(count((a) => a.command.startsWith("TransactWriteItems")) / events),
      rulesGetItemPerEvent: round(count((a) => rulesRead(a) && a.command.startsWith("GetItem")) / events),
      rulesQueryPerEvent: round(count((a) => rulesRead(a) && a.command.startsWith("Query")) / events),
      callsPerEvent: round(attempts.length / events),
      otherCalls: count((a) => !rulesRead(a) && !a.command.startsWith("TransactWriteItems")),
      coldBatchRulesReads: cold
        .filter(rulesRead)
        .map(
          (a) =>
            `${a.command.replace(/Command$/, "")} ${/"CURRENT"/.test(a.body) ? "CURRENT" : (/"V#\d+"/.exec(a.body)?.[0]?.replaceAll('"', "") ?? "V# (last published)")}`,
        ),
    });
    deps.dynamo.destroy();
    log(`worker (${published ? "published" : "version 0"}): done`);
  }

  // --- 2. rules reads in an hour, one batch a second -------------------------------------------
  const hour: RulesCostResults["hour"] = [];
  for (const published of [false, true]) {
    const tableName = await freshTable(published ? "hour-v" : "hour-0");
    const start = Date.now();
    let now = start;
    if (published) await publish(tableName, small(21), now);
    const client = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    const attempts = recordAttempts(client);
    // The source's reads, awaited before the next second's batch (a read behind a batch ends with it).
    const pending = new Set<Promise<unknown>>();
    const sender: Pick<DynamoDBDocumentClient, "send"> = {
      send: ((command: Parameters<DynamoDBDocumentClient["send"]>[0]) => {
        const sent = client.send(command);
        pending.add(sent);
        sent.finally(() => pending.delete(sent)).catch(() => {});
        return sent;
      }) as DynamoDBDocumentClient["send"],
    };
    const source = createRulesSource({
      dynamo: sender,
      tableName,
      refreshSeconds: REFRESH_SECONDS,
      clock: () => now,
    });
    const publishAt = published ? [10, 25, 40].map((minute) => start + minute * 60_000) : [];
    let versions = published ? 1 : 0;
    const seen = new Set<number>();
    for (let second = 0; second < 3600; second++) {
      now = start + second * 1000;
      if (publishAt.includes(now)) versions = await publish(tableName, small(21 + versions), now);
      const inForce = await source.forBatch();
      seen.add(inForce.version.version);
      while (pending.size > 0) await Promise.all(pending);
    }
    const reads = attempts.filter(rulesRead);
    hour.push({
      rules: published ? "version 1, then 3 versions published in the hour" : "nothing published (version 0)",
      refreshSeconds: REFRESH_SECONDS,
      batches: 3600,
      versionsPublishedInTheHour: published ? 3 : 0,
      versionsUsed: [...seen].sort((a, b) => a - b),
      currentReads: reads.filter((a) => a.command.startsWith("GetItem") && a.body.includes('"CURRENT"'))
        .length,
      versionReads: reads.filter((a) => a.command.startsWith("GetItem") && /"V#\d+"/.test(a.body)).length,
      lastPublishedQueries: reads.filter((a) => a.command.startsWith("Query")).length,
      rulesCalls: reads.length,
    });
    client.destroy();
    log(`hour (${published ? "published" : "version 0"}): done`);
  }

  // --- 3. the reader's profile -----------------------------------------------------------------
  const profile: RulesCostResults["profile"] = [];
  const versions: RulesCostResults["versions"] = [];
  for (const kind of ["version 0", "small", "large"] as const) {
    const tableName = await freshTable(`reader-${kind.replace(" ", "")}`);
    const start = Date.now();
    let now = start;
    const documentOf = (n: number) => (kind === "large" ? largeRules(n) : small(20 + n));
    if (kind !== "version 0") await publish(tableName, documentOf(1), now);
    // A reader with a few awards: the profile's items exist.
    const deps = createWorkerDeps({ ...env, TABLE_NAME: tableName });
    const user = "bench-profile";
    await processBatch(
      { ...deps, emitMetrics: () => {} },
      sqsEvent(
        ["a", "b", "c"].map((slug) =>
          sqsRecord(eventBody("article.completed", { userId: user, articleSlug: slug })),
        ),
      ),
      lambdaContext(),
    );
    deps.dynamo.destroy();
    const { client, calls } = notedClient(stack.endpoints.dynamodb);
    const reader = createReader({
      tableName,
      client,
      dailyCap: 1_000_000, // a cap: the day's XP is one more key of the BatchGetItem, not a Query
      rulesRefreshSeconds: REFRESH_SECONDS,
      clock: () => new Date(now),
    });
    const measure = async (when: string) => {
      calls.length = 0;
      await reader.profile(user);
      const by = (name: string) => calls.filter((c) => c.command === `${name}Command`);
      const batch = by("BatchGetItem");
      const gets = by("GetItem");
      profile.push({
        rules:
          kind === "version 0"
            ? "version 0 (nothing published)"
            : kind === "small"
              ? "small (4 types)"
              : "100 types, 200 achievements",
        when,
        roundTrips: depth(calls),
        calls: calls.length,
        batchGetItem: batch.length,
        batchGetItemUnits: batch.reduce((sum, c) => sum + (c.units ?? 0), 0),
        versionGetItem: gets.length,
        queries: by("Query").length,
        queryUnits: by("Query").reduce((sum, c) => sum + (c.units ?? 0), 0),
        reportedUnits: calls.reduce((sum, c) => sum + (c.units ?? 0), 0),
        callsWithoutUnits: calls
          .filter((c) => c.units === undefined)
          .map((c) => c.command.replace(/Command$/, "")),
      });
    };
    await measure("first call: due, version new to the reader");
    now += 1000;
    await measure("not due (read 1 s ago)");
    now += (REFRESH_SECONDS + 1) * 1000;
    await measure("due, same version (CURRENT in the BatchGetItem)");
    if (kind !== "version 0") {
      await publish(tableName, documentOf(2), now);
      now += (REFRESH_SECONDS + 1) * 1000;
      await measure("due, a new version (CURRENT + the V# GetItem)");
      // The V# item's read units: the reader's GetItem does not ask for them; a probe of the same read does.
      const probe = await base.send(
        new GetItemCommand({
          TableName: tableName,
          Key: marshall(rulesVersionKey(2)),
          ConsistentRead: true,
          ReturnConsumedCapacity: "TOTAL",
        }),
      );
      const bytes = itemBytes(probe.Item ?? {});
      const document = documentOf(2);
      versions.push({
        rules: kind === "small" ? "small (4 types)" : "100 types, 200 achievements",
        types: Object.keys(document.types).length,
        achievements: document.achievements.length,
        documentJsonBytes: Buffer.byteLength(JSON.stringify(document)),
        versionItemBytes: bytes,
        versionGetItemUnitsReported: probe.ConsumedCapacity?.CapacityUnits ?? null,
        versionGetItemUnitsComputed: Math.ceil(bytes / 4096),
      });
    }
    client.destroy();
    log(`profile (${kind}): done`);
  }

  const results: RulesCostResults = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    refreshSeconds: REFRESH_SECONDS,
    worker,
    hour,
    profile,
    versions,
  };
  const text = `${JSON.stringify(results, null, 2)}\n`;
  process.stdout.write(text);
  await writeFile(values.out, text);
  // The report's section, replaced in place (bench/peersReport.ts appends it when it renders the report).
  const root = fileURLToPath(new URL("..", import.meta.url));
  const reportPath = values.report.startsWith("/") ? values.report : `${root}${values.report}`;
  const report = await readFile(reportPath, "utf8");
  const at = report.indexOf(RULES_REPORT_HEADING);
  const kept = at < 0 ? report.trimEnd() : report.slice(0, at).trimEnd();
  await writeFile(reportPath, `${kept}\n\n${rulesSection(results).join("\n")}\n`);
  log(`wrote ${values.out} and the rules section of ${values.report}`);
} finally {
  base.destroy();
  dynamo.destroy();
  await stack.stop();
}
