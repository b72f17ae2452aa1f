/**
 * The week's board on the local stack (docs/board.md#measured): a week filled with --readers
 * readers' week items (32 shards), then the reader's top 20 (latency, calls, read units by
 * DynamoDB's rule and as the emulator reports them), a profile's rank at a few depths, the
 * history writer's throughput on a burst of awards to distinct readers, and the lag from an
 * award's commit to its week item, one award at a time.
 *
 *   npx tsx bench/board.ts [--readers 100000] [--top 30] [--burst 500] [--lag 40] [--out bench/results.board.json]
 */
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { type ConsumedCapacity, DynamoDBClient, type QueryCommandOutput } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  boardEntryOfSortKey,
  boardPartition,
  boardShardOf,
  EMPTY_WEEK,
  guardKey,
  intentKey,
  isoWeekOf,
  seededRandom,
  weekAfter,
  weekItemOf,
  weekKey,
} from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS, toolConfigFrom } from "@rewards/core/deploy";
import { deployedHistorySettings, startLocalHistory, startLocalStack } from "@rewards/local";
import { createReader } from "@rewards/reader";
import { waitUntilAnnounced } from "@rewards/scenario";
import { completed, lambdaContext, sqsEvent, sqsRecord } from "@rewards/testing";
import { createHandler, createWorkerDeps } from "@rewards/worker";

const { values } = parseArgs({
  options: {
    readers: { type: "string", default: "100000" },
    top: { type: "string", default: "30" },
    burst: { type: "string", default: "500" },
    lag: { type: "string", default: "40" },
    out: { type: "string" },
  },
});
const READERS = Number(values.readers);
const TOP_CALLS = Number(values.top);
const BURST = Number(values.burst);
const LAG_AWARDS = Number(values.lag);
const SHARDS = DEFAULT_BOARD_SHARDS;
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (text: string) => process.stderr.write(`${text}\n`);

/** An item's size as DynamoDB counts it for reads: each attribute's name and value, in UTF-8 bytes. */
const itemBytes = (item: Record<string, unknown>) =>
  Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(String(value)),
    0,
  );
/**
 * A keys-only index entry as a Query of the index reads it: the table's keys and the index's
 * (whatever the ProjectionExpression asks for), rebuilt from its sort key.
 */
function entryBytes(boardSk: string, week: string): number {
  const entry = boardEntryOfSortKey(boardSk);
  if (!entry) return 0;
  const { pk, sk } = weekKey(entry.userId, week);
  const boardPk = boardPartition(week, boardShardOf(entry.userId, SHARDS));
  return itemBytes({ pk, sk, boardPk, boardSk });
}
/** A Query's read units by DynamoDB's rule: its items' total size rounded up to 4 KB, halved (eventually consistent). */
const queryUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096)) * 0.5;

/** A client that records each Query's items' size and what the emulator says it consumed. */
function measuredClient(endpoint: string) {
  const client = new DynamoDBClient({ region: "us-east-1", endpoint, credentials, maxAttempts: 1 });
  const queries: Array<{ bytes: number; reported: number }> = [];
  let calls = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      calls++;
      const out = await next(args);
      if (context.commandName === "QueryCommand") {
        const output = out.output as QueryCommandOutput & { ConsumedCapacity?: ConsumedCapacity };
        const bytes = (output.Items ?? []).reduce(
          (sum, item) => sum + entryBytes(String(unmarshall(item).boardSk), isoWeekOf(Date.now())),
          0,
        );
        queries.push({ bytes, reported: output.ConsumedCapacity?.CapacityUnits ?? Number.NaN });
      }
      return out;
    },
    { step: "initialize" },
  );
  return { client, queries, calls: () => calls };
}

const stack = await startLocalStack({ tableName: "bench-board" });
const env: Record<string, string> = { ...stack.env, LOG_LEVEL: "silent" };
const config = toolConfigFrom(env, "TABLE_NAME");
const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: "us-east-1", endpoint: stack.endpoints.dynamodb, credentials }),
);
const history = await startLocalHistory({
  config,
  code: "artifact",
  settings: { ...deployedHistorySettings(), pollIntervalMs: 50, retryDelayMs: 50 },
  logger: createLogger({ level: "silent" }),
});
try {
  const week = isoWeekOf(Date.now());
  const random = seededRandom(49);
  // --- 1. a week with READERS readers on the board, written directly (the writer's items) ----------
  const fillStarted = performance.now();
  const filled: Array<{ userId: string; xp: number }> = [];
  const xpOf = (userId: string) => {
    const xp = 1 + Math.floor(random() * 5000);
    filled.push({ userId, xp });
    return xp;
  };
  for (let i = 0; i < READERS; i += 25) {
    const items = Array.from({ length: Math.min(25, READERS - i) }, (_, j) => {
      // 12 characters, as the docs' arithmetic assumes.
      const userId = `reader-${String(i + j).padStart(5, "0")}`;
      return weekItemOf({
        userId,
        week,
        state: weekAfter(EMPTY_WEEK, [
          { id: `grant-${userId.padEnd(43, "x")}`, xp: xpOf(userId), revoked: false },
        ]),
        version: 1,
        updatedAt: new Date().toISOString(),
        shards: SHARDS,
        keepWeeks: DEFAULT_BOARD_WEEKS,
      });
    });
    let asking = items.map((Item) => ({ PutRequest: { Item } }));
    while (asking.length > 0) {
      const answer = await dynamo.send(
        new BatchWriteCommand({ RequestItems: { [config.TABLE_NAME]: asking } }),
      );
      asking = (answer.UnprocessedItems?.[config.TABLE_NAME] ?? []) as typeof asking;
    }
    if (i % 10_000 === 0) log(`fill: ${i} / ${READERS}`);
  }
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  log("fill: done");

  // --- 2. the top 20, and pages after it -------------------------------------------------------
  const measured = measuredClient(stack.endpoints.dynamodb);
  const reader = createReader({ tableName: config.TABLE_NAME, client: measured.client, boardShards: SHARDS });
  const topMs: number[] = [];
  let top: Awaited<ReturnType<typeof reader.board>> | undefined;
  for (let i = 0; i < TOP_CALLS; i++) {
    measured.queries.length = 0;
    const started = performance.now();
    top = await reader.board({ limit: 20 });
    topMs.push(performance.now() - started);
  }
  const topQueries = [...measured.queries];
  const topUnits = topQueries.map((q) => queryUnits(q.bytes));
  log("top 20: done");

  // --- 3. a reader's rank at a few depths ---------------------------------------------------------
  const ranked = [...(top?.entries ?? [])];
  const rankRows: Record<string, unknown>[] = [];
  // Readers at the 1st, 500th and 990th places of the board, and one past its 1,000 ranks.
  const depths = [1, 500, 990, 5000].filter((depth) => depth <= READERS);
  // The board as the fill made it (its own numbers, sorted as the board sorts), not read back:
  // paging the whole board here would cost the local DynamoDB minutes per page.
  const everyone = filled.sort(
    (a, b) => b.xp - a.xp || Buffer.compare(Buffer.from(a.userId), Buffer.from(b.userId)),
  );
  for (const depth of depths) {
    const target = depth <= everyone.length ? everyone[depth - 1] : undefined;
    const userId = target?.userId ?? `reader-${String(READERS - 1).padStart(5, "0")}`;
    const before = measured.calls();
    measured.queries.length = 0;
    const started = performance.now();
    const profile = await reader.profile(userId);
    rankRows.push({
      depth,
      userId,
      rank: profile.week.rank ?? null,
      ms: round(performance.now() - started),
      dynamoCalls: measured.calls() - before,
      shardQueryUnitsMax: Math.max(
        ...measured.queries.filter((q) => q.bytes > 0).map((q) => queryUnits(q.bytes)),
      ),
    });
  }
  log("ranks: done");

  // --- 4. the writer: a burst of awards to distinct readers ---------------------------------------
  const worker = createHandler({ ...createWorkerDeps(env), emitMetrics: () => {} });
  const burstStarted = Date.now();
  for (let i = 0; i < BURST; i += 10)
    await worker(
      sqsEvent(
        Array.from({ length: Math.min(10, BURST - i) }, (_, j) =>
          sqsRecord(completed(`burst-${i + j}`, "a")),
        ),
      ),
      lambdaContext(),
    );
  const committed = Date.now();
  await waitUntilAnnounced(history.source, committed, 300_000);
  const burstSeconds = (Date.now() - burstStarted) / 1000;
  const last = await dynamo.send(
    new GetCommand({
      TableName: config.TABLE_NAME,
      Key: weekKey(`burst-${BURST - 1}`, week),
      ConsistentRead: true,
    }),
  );
  if (last.Item?.xp !== 20) throw new Error(`burst: the last reader's week is ${JSON.stringify(last.Item)}`);
  log("burst: done");

  // --- 5. commit → week item, one award at a time -------------------------------------------------
  const lags: number[] = [];
  for (let i = 0; i < LAG_AWARDS; i++) {
    const userId = `lag-${i}`;
    await worker(sqsEvent([sqsRecord(completed(userId, "a"))]), lambdaContext());
    const sent = Date.now();
    for (;;) {
      const found = await dynamo.send(
        new GetCommand({ TableName: config.TABLE_NAME, Key: weekKey(userId, week), ConsistentRead: true }),
      );
      if (found.Item?.xp === 20) break;
      if (Date.now() - sent > 30_000) throw new Error(`no week item for ${userId} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const guardAt = await dynamo.send(
      new GetCommand({
        TableName: config.TABLE_NAME,
        Key: guardKey(intentKey([userId, "a", "article.completed"])),
        ConsistentRead: true,
      }),
    );
    lags.push(Date.now() - Date.parse(String(guardAt.Item?.awardedAt)));
  }
  log("lag: done");

  const results = {
    generatedAt: new Date().toISOString(),
    readers: READERS,
    shards: SHARDS,
    fill: { seconds: round(fillSeconds), itemsPerSecond: Math.round(READERS / fillSeconds) },
    top20: {
      calls: TOP_CALLS,
      p50Ms: round(percentile(topMs, 50)),
      p99Ms: round(percentile(topMs, 99)),
      queriesPerCall: topQueries.length,
      bytesPerShardMax: Math.max(...topQueries.map((q) => q.bytes)),
      readUnitsPerShardMax: Math.max(...topUnits),
      readUnitsPerCall: topUnits.reduce((sum, u) => sum + u, 0),
      readUnitsReportedPerCall: round(
        topQueries.reduce((sum, q) => sum + q.reported, 0),
        2,
      ),
      first: ranked.slice(0, 3),
    },
    profileRank: rankRows,
    writerBurst: {
      awards: BURST,
      seconds: round(burstSeconds),
      awardsPerSecond: Math.round(BURST / burstSeconds),
    },
    boardLag: {
      awards: LAG_AWARDS,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: Math.max(...lags),
    },
  };
  const text = `${JSON.stringify(results, null, 2)}\n`;
  process.stdout.write(text);
  if (values.out) await writeFile(values.out, text);
} finally {
  await history.stop();
  await stack.stop();
}
