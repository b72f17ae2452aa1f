import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { queueCounts } from "@rewards/ops";
import {
  completed,
  eventBody,
  lambdaContext,
  runCli,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import { beforeAll, describe, expect } from "vitest";

/**
 * The DLQ's operators (docs/operations.md, "The dead-letter queue"): a purge of one reason,
 * dry, exported, and failing part-way; peek's whole reasons; replay's verdicts one by one.
 */
const it = stackTest();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rewards-dlq-"));
});

/** Parks `bodies` the way the worker does (the real processBatch against the test's queues). */
async function park(env: Record<string, string>, bodies: string[]) {
  const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
  const { counts } = await processBatch(
    deps,
    sqsEvent(bodies.map((body) => sqsRecord(body))),
    lambdaContext(),
  );
  expect(counts.parked).toBe(bodies.length);
}

const unknownType = (i: number) => eventBody("article.liked", { userId: `u${i}`, articleSlug: "a" });
/** Two unknown_type, two invalid_json, one invalid_event, one stale. */
const mixed = [
  unknownType(1),
  "{not json",
  unknownType(2),
  "{nor this",
  eventBody("article.completed", { userId: "u3" }),
  eventBody("article.completed", { userId: "u4", articleSlug: "old" }, { time: "2020-01-01T00:00:00Z" }),
];
const inDlq = async (sqs: SQSClient, url: string) => {
  const { visible, inFlight } = await queueCounts(sqs, url);
  return { visible, inFlight };
};

describe("rewards dlq purge, by reason", () => {
  it("--error unknown_type --dry-run counts only those, deletes nothing, and every message is visible again at once", async ({
    env,
  }) => {
    await park(env, mixed);
    const dry = await runCli(["dlq", "purge", "--error", "unknown_type", "--dry-run"], env);
    expect(dry).toMatchObject({
      code: 0,
      stderr: "",
      stdout:
        "dry run: 2 messages (unknown_type 2) would be purged; nothing deleted, every message visible again.\n" +
        "4 messages not matching left in the DLQ.\n",
    });
    expect(await inDlq(createSqsClient(env), env.DLQ_URL as string)).toEqual({ visible: 6, inFlight: 0 });
    const all = JSON.parse((await runCli(["dlq", "purge", "--dry-run", "--json"], env)).stdout);
    expect(all).toEqual({
      dryRun: true,
      matching: 6,
      byError: { unknown_type: 2, invalid_json: 2, invalid_event: 1, stale: 1 },
      purged: 0,
      notMatching: 0,
      inFlightAtStart: 0,
      failed: 0,
      failures: [],
    });
  });

  it("--export writes every message it purges, flushed, before deleting exactly those", async ({ env }) => {
    await park(env, mixed);
    const file = join(dir, `unknown-${Date.now()}.ndjson`);
    const run = await runCli(
      ["dlq", "purge", "--error", "unknown_type", "--export", file, "--yes", "--json"],
      env,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      dryRun: false,
      matching: 2,
      byError: { unknown_type: 2 },
      exported: 2,
      purged: 2,
      notMatching: 4,
      inFlightAtStart: 0,
      failed: 0,
      failures: [],
    });
    const exported = (await readFile(file, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(exported.map((m) => m.body).sort()).toEqual([mixed[0], mixed[2]].sort());
    for (const message of exported) {
      expect(message.messageAttributes["rewards.error"]).toEqual({
        DataType: "String",
        StringValue: "unknown_type",
      });
      expect(message.messageAttributes["rewards.reason"].StringValue).toMatch(/article\.liked/);
      expect(Object.keys(message.attributes)).toContain("SentTimestamp");
    }
    const sqs = createSqsClient(env);
    expect(await inDlq(sqs, env.DLQ_URL as string)).toEqual({ visible: 4, inFlight: 0 });
    const left = JSON.parse((await runCli(["dlq", "peek", "--max", "10", "--json"], env)).stdout);
    expect(left.map((m: { error: string }) => m.error).sort()).toEqual([
      "invalid_event",
      "invalid_json",
      "invalid_json",
      "stale",
    ]);

    // The export is never overwritten: the run stops before reading anything.
    await writeFile(join(dir, "kept.ndjson"), "earlier\n");
    const again = await runCli(
      ["dlq", "purge", "--error", "stale", "--export", join(dir, "kept.ndjson"), "--yes"],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `rewards: --export: ${join(dir, "kept.ndjson")} exists; an export is never overwritten (it may be the only copy of messages purged before): name a new file\n`,
    );
    expect(await readFile(join(dir, "kept.ndjson"), "utf8")).toBe("earlier\n");
    expect(await inDlq(sqs, env.DLQ_URL as string)).toEqual({ visible: 4, inFlight: 0 });
  });

  it("refuses an unknown reason and a purge without --yes, exit 2", async ({ env }) => {
    const bogus = await runCli(["dlq", "purge", "--error", "bogus", "--dry-run"], env);
    expect(bogus).toMatchObject({ code: 2 });
    expect(bogus.stderr.split("\n")[0]).toBe(
      "rewards: --error must be one of invalid_json, invalid_event, unknown_type, stale, rejected, redriven",
    );
    const unconfirmed = await runCli(["dlq", "purge", "--error", "stale"], env);
    expect(unconfirmed).toMatchObject({ code: 2 });
    expect(unconfirmed.stderr.split("\n")[0]).toBe(
      "rewards: purge deletes every message parked for stale for good; add --yes to confirm",
    );
  });
});

describe("dlq purge part-way: nothing deleted that was not exported", () => {
  it.for([
    ["ReceiveMessage", 1],
    ["DeleteMessageBatch", 0],
    ["ChangeMessageVisibilityBatch", 0],
  ] as const)("with %s failing", async ([operation, skip], { env, stack }) => {
    // 12 unknown_type among 18: two receives, two delete batches, the rest released at the end.
    await park(env, [
      ...Array.from({ length: 12 }, (_, i) => unknownType(i)),
      ...Array.from({ length: 6 }, (_, i) => `{${i}`),
    ]);
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation, fault: "http500", probability: 1, skip }],
      seed: 1,
    });
    const file = join(dir, `${operation}.ndjson`);
    const run = await runCli(
      ["dlq", "purge", "--error", "unknown_type", "--export", file, "--yes", "--json"],
      { ...env, AWS_ENDPOINT_URL_SQS: proxy.endpoint },
    );
    await proxy.stop();
    expect(run.code).toBe(1);
    const sqs = createSqsClient(env);
    const { visible, inFlight } = await inDlq(sqs, env.DLQ_URL as string);
    const exported = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    if (operation === "ReceiveMessage") {
      // Nothing read whole: nothing exported, nothing deleted, what was held released.
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^rewards: .*\n$/);
      expect(exported).toEqual([]);
      expect({ visible, inFlight }).toEqual({ visible: 18, inFlight: 0 });
    } else if (operation === "DeleteMessageBatch") {
      // Exported first; every delete failed: all still there, visible again, each failure named.
      expect(exported).toHaveLength(12);
      expect(JSON.parse(run.stdout)).toMatchObject({ matching: 12, exported: 12, purged: 0, failed: 12 });
      expect(JSON.parse(run.stdout).failures[0].error).toMatch(/^not deleted \(it stays in the DLQ\): /);
      expect({ visible, inFlight }).toEqual({ visible: 18, inFlight: 0 });
    } else {
      // Exported, then deleted; the 6 others are not released (they come back when the hold ends).
      expect(exported).toHaveLength(12);
      expect(JSON.parse(run.stdout)).toMatchObject({
        matching: 12,
        exported: 12,
        purged: 12,
        failed: 0,
        notReleased: expect.stringContaining("not released"),
      });
      expect(visible + inFlight).toBe(6);
    }
  });
});

describe("rewards dlq peek and replay --dry-run, message by message", () => {
  it("peek shows the whole reason, wrapped to the width, never cut off", async ({ env }) => {
    // A long reason: every problem of an invalid event is named.
    const invalid = eventBody("article.shared", { userId: "", articleSlug: "", channel: "x".repeat(65) });
    await park(env, [invalid]);
    const [json] = JSON.parse((await runCli(["dlq", "peek", "--json"], env)).stdout);
    expect(json.reason.length).toBeGreaterThan(100);
    const peek = await runCli(["dlq", "peek"], { ...env, COLUMNS: "40" });
    expect(peek.code).toBe(0);
    const lines = peek.stdout.trimEnd().split("\n");
    expect(lines.every((line) => [...line].length <= 40)).toBe(true);
    const reasonLines = lines.slice(
      lines.findIndex((line) => line.startsWith("  reason: ")),
      lines.findIndex((line) => line.startsWith("  body: ")),
    );
    expect(reasonLines.length).toBeGreaterThan(3);
    expect(reasonLines.map((line) => line.slice(10)).join(" ")).toBe(json.reason.split(/\s+/).join(" "));
    const header = lines.slice(
      0,
      lines.findIndex((line) => line.startsWith("  reason: ")),
    );
    expect(header.map((line) => line.trim()).join(" ")).toBe(
      `${json.sourceMessageId} invalid_event: article.shared, no user, parked at ${json.parkedAt}`,
    );
  });

  it("replay --dry-run prints every message's verdict and its intent, and --json carries them", async ({
    env,
  }) => {
    const user = `dry-${Date.now()}`;
    const paid = completed(user, "paid");
    const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
    expect((await processBatch(deps, sqsEvent([sqsRecord(paid)]), lambdaContext())).counts.awarded).toBe(1);
    // Copies the redrive policy moved (no rewards.* attributes): one paid, one new, one stale, one not JSON.
    const sqs = createSqsClient(env);
    for (const body of [
      paid,
      completed(user, "new"),
      eventBody("article.completed", { userId: user, articleSlug: "old" }, { time: "2020-01-01T00:00:00Z" }),
      "{no",
    ])
      await sqs.send(new SendMessageCommand({ QueueUrl: env.DLQ_URL, MessageBody: body }));
    const dry = JSON.parse((await runCli(["dlq", "replay", "--dry-run", "--json"], env)).stdout);
    const byVerdict = Object.fromEntries(
      dry.judged.map((j: { verdict: string; messageId: string; intentKey?: string; reason?: string }) => [
        j.verdict,
        j,
      ]),
    );
    expect(Object.keys(byVerdict).sort()).toEqual(["invalid", "paid", "pay", "stale"]);
    const text = await runCli(["dlq", "replay", "--dry-run"], env);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "Replayed now, the matching messages would: 1 would pay, 1 already paid, 1 stale, 1 invalid.",
    );
    expect(lines[1]).toBe(
      "4 would be replayed (dry run: nothing moved), 0 extra copies would be deleted, 0 failed.",
    );
    // The stale reason names the oldest time judged now: the two runs' nows differ.
    const instants = (line: string) => line.replace(/before \S+Z/, "before <now>");
    expect(lines.slice(2).map(instants).sort()).toEqual(
      [
        `  ${byVerdict.pay.messageId}: would pay "${user}#new#article.completed"`,
        `  ${byVerdict.paid.messageId}: already paid "${user}#paid#article.completed"`,
        `  ${byVerdict.stale.messageId}: stale "${user}#old#article.completed": ${instants(byVerdict.stale.reason)}`,
        `  ${byVerdict.invalid.messageId}: invalid: ${byVerdict.invalid.reason}`,
      ].sort(),
    );
    expect(byVerdict.stale.reason).toMatch(
      /^time 2020-01-01T00:00:00.000Z is too old: article.completed is remembered 90 days/,
    );
    expect(byVerdict.invalid.reason).toMatch(/^body is not JSON: /);
    expect(await inDlq(sqs, env.DLQ_URL as string)).toEqual({ visible: 4, inFlight: 0 });
  });
});
