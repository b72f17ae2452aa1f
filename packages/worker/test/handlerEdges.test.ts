import type { SendMessageCommandInput, SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient, TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { PARK_ATTRIBUTES } from "@rewards/core";
import { createLogger, type RetryPolicy } from "@rewards/core/aws";
import { lambdaContext, sqsEvent, sqsRecord } from "@rewards/testing";
import type { Context, SQSRecord } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { createHandler, type WorkerDeps } from "../src";

/**
 * The worker through its handler (the contract that stays while the award path inside it
 * changes), over an in-memory table and DLQ: every input here is one
 * the world sends and the local stack makes hard or slow to stage — bodies of every JSON
 * type, times at every bound, a permanent error, a retry loop longer than the invocation.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;
const NOW = Date.parse("2026-12-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

interface Sent {
  input: TransactWriteCommandInput;
  /** The clock's reading when the call started, and whether it carried an abort signal. */
  at: number;
  signal: boolean;
}

type Answer = "ok" | Error;

/**
 * DynamoDB's transactions over a map of guards: a Put with the guard's condition fails with
 * ConditionalCheckFailed on its own item when the guard is there and unexpired. `script`
 * answers calls in order before the table does (then the table decides).
 */
function memoryTable(clock: { now: number }, script: Answer[] = [], stepMs = 0) {
  const guards = new Map<string, Record<string, unknown>>();
  const sent: Sent[] = [];
  const client = {
    async send(command: { input: TransactWriteCommandInput }, options?: { abortSignal?: AbortSignal }) {
      const input = command.input;
      sent.push({ input, at: clock.now, signal: options?.abortSignal !== undefined });
      clock.now += stepMs;
      const answer = script[sent.length - 1];
      if (answer instanceof Error) throw answer;
      const items = input.TransactItems ?? [];
      const reasons = items.map((item) => {
        const put = item.Put;
        if (!put) return { Code: "None" };
        const existing = guards.get(String(put.Item?.pk));
        const now = Number(put.ExpressionAttributeValues?.[":now"]);
        return existing && !(Number(existing.expiresAt) < now)
          ? { Code: "ConditionalCheckFailed", Item: undefined }
          : { Code: "None" };
      });
      if (answer !== "ok" && reasons.some((r) => r.Code === "ConditionalCheckFailed")) {
        throw Object.assign(new Error("Transaction cancelled"), {
          name: "TransactionCanceledException",
          CancellationReasons: reasons,
        });
      }
      for (const item of items) if (item.Put?.Item) guards.set(String(item.Put.Item.pk), item.Put.Item);
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, sent, guards };
}

function memoryDlq() {
  const parked: SendMessageCommandInput[] = [];
  const sqs = {
    async send(command: { input: SendMessageCommandInput }) {
      parked.push(command.input);
      return { MessageId: `dlq-${parked.length}` };
    },
  } as unknown as SQSClient;
  return { sqs, parked };
}

const noWait: RetryPolicy = { maxAttempts: 4, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 60_000 };

function worker(options: { script?: Answer[]; stepMs?: number; policy?: RetryPolicy; dlqUrl?: string } = {}) {
  const clock = { now: NOW };
  const table = memoryTable(clock, options.script, options.stepMs);
  const dlq = memoryDlq();
  const deps: WorkerDeps = {
    tableName: "rewards",
    stage: "test",
    dlqUrl: options.dlqUrl ?? "http://localhost/000000000000/rewards-dlq",
    concurrency: 4,
    dynamo: table.client,
    sqs: dlq.sqs,
    logger: createLogger({ level: "silent" }),
    clock: () => clock.now,
    retryPolicy: options.policy ?? noWait,
    emitMetrics: () => {},
  };
  const handler = createHandler(deps);
  const run = (records: SQSRecord[], context: Context = lambdaContext(60_000)) =>
    handler(sqsEvent(records), context);
  const parkedAs = () =>
    dlq.parked.map((message) => [
      message.MessageAttributes?.[PARK_ATTRIBUTES.sourceMessageId]?.StringValue,
      message.MessageAttributes?.[PARK_ATTRIBUTES.error]?.StringValue,
    ]);
  return { clock, table, dlq, run, parkedAs };
}

const event = (type: string, data: Record<string, unknown>, time?: string) =>
  JSON.stringify({
    specversion: "1.0",
    id: `evt-${type}`,
    source: "/test",
    type,
    ...(time === undefined ? {} : { time }),
    data,
  });
const article = (userId: string, slug: string, time?: string) =>
  event("article.completed", { userId, articleSlug: slug }, time);
const streak = (userId: string, day: string, time?: string) => event("streak.day", { userId, day }, time);

/** A record as Lambda delivers it, sent at `sentAt` (epoch ms), with a `rewards.firstSentAt` when given. */
function record(
  body: string,
  id: string,
  options: { sentAt?: number; firstSentAt?: string; groupId?: string } = {},
) {
  const r = sqsRecord(body, {
    messageId: id,
    ...(options.groupId
      ? { groupId: options.groupId, queueArn: "arn:aws:sqs:us-east-1:000000000000:q.fifo" }
      : {}),
    ...(options.firstSentAt
      ? {
          messageAttributes: {
            [PARK_ATTRIBUTES.firstSentAt]: { dataType: "String", stringValue: options.firstSentAt },
          },
        }
      : {}),
  });
  r.attributes.SentTimestamp = String(options.sentAt ?? NOW);
  return r;
}

const cancelled = (...codes: string[]) =>
  Object.assign(new Error("Transaction cancelled"), {
    name: "TransactionCanceledException",
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const throttled = () =>
  Object.assign(new Error("Rate exceeded"), {
    name: "ThrottlingException",
    $metadata: { httpStatusCode: 400 },
  });

describe("bodies of every JSON type (docs/events.md#the-message: the body is the JSON text of one event)", () => {
  const valid = JSON.parse(article("ann", "a")) as unknown;
  it.each([
    ["an array holding a valid event", JSON.stringify([valid])],
    ["an array of two valid events", JSON.stringify([valid, JSON.parse(article("bob", "b"))])],
    ["a number", "42"],
    ["a string holding a valid event's JSON", JSON.stringify(article("ann", "a"))],
    ["null", "null"],
    ["true", "true"],
    [
      "an SNS notification whose Message is an array",
      JSON.stringify({ Type: "Notification", Message: JSON.stringify([valid]) }),
    ],
    [
      "an EventBridge event whose detail is an array",
      JSON.stringify({ "detail-type": "article.completed", detail: [valid], id: "e", source: "s" }),
    ],
  ])("%s is parked invalid_event, acknowledged, and pays nothing", async (_label, body) => {
    const w = worker();
    const response = await w.run([record(body, "m-1")]);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(w.parkedAs()).toEqual([["m-1", "invalid_event"]]);
    expect(w.dlq.parked[0]?.MessageBody).toBe(body);
    expect(w.table.sent).toEqual([]);
  });

  it("the reason names the layer and field at fault: an EventBridge detail that is an array", async () => {
    const w = worker();
    const body = JSON.stringify({
      "detail-type": "article.completed",
      detail: [valid],
      id: "e",
      source: "s",
    });
    await w.run([record(body, "m-1")]);
    expect(w.dlq.parked[0]?.MessageAttributes?.[PARK_ATTRIBUTES.reason]?.StringValue).toBe(
      "in the EventBridge event: detail: must be an object",
    );
  });

  it.each([
    ["{"],
    [""],
    ["[1,"],
    ["undefined"],
    [JSON.stringify({ Type: "Notification", Message: "not json" })],
  ])("%j is parked invalid_json", async (body) => {
    const w = worker();
    expect(await w.run([record(body, "m-1")])).toEqual({ batchItemFailures: [] });
    expect(w.parkedAs()).toEqual([["m-1", "invalid_json"]]);
    expect(w.table.sent).toEqual([]);
  });
});

describe("each of an event's times, at each bound (docs/events.md#event-time)", () => {
  const AHEAD = 5 * MINUTE;
  const OLDEST = NOW - 89 * DAY; // article.completed's memory is 90 days

  // Each way an event is timed: its `time`; else rewards.firstSentAt; else SentTimestamp.
  const timed = {
    time: (ms: number) => record(article("ann", "a", iso(ms)), "m-1", { sentAt: NOW, firstSentAt: iso(NOW) }),
    "rewards.firstSentAt": (ms: number) =>
      record(article("ann", "a"), "m-1", { sentAt: NOW, firstSentAt: iso(ms) }),
    SentTimestamp: (ms: number) => record(article("ann", "a"), "m-1", { sentAt: ms }),
  };

  for (const [from, make] of Object.entries(timed)) {
    it(`${from}: 5 minutes ahead is paid; a millisecond more is invalid_event`, async () => {
      const at = worker();
      await at.run([make(NOW + AHEAD)]);
      expect([at.table.sent.length, at.dlq.parked.length]).toEqual([1, 0]);
      const past = worker();
      expect(await past.run([make(NOW + AHEAD + 1)])).toEqual({ batchItemFailures: [] });
      expect(past.parkedAs()).toEqual([["m-1", "invalid_event"]]);
      expect(past.dlq.parked[0]?.MessageAttributes?.[PARK_ATTRIBUTES.reason]?.StringValue).toContain(
        "more than 5 minutes after the worker's clock",
      );
      expect(past.table.sent).toEqual([]);
    });

    it(`${from}: 200 days ahead (it would outlive its guard and pay twice) is invalid_event`, async () => {
      const w = worker();
      await w.run([make(NOW + 200 * DAY)]);
      expect(w.parkedAs()).toEqual([["m-1", "invalid_event"]]);
      expect(w.table.sent).toEqual([]);
    });

    it(`${from}: as old as the memory less a day is paid; a millisecond older is stale`, async () => {
      const at = worker();
      await at.run([make(OLDEST)]);
      expect([at.table.sent.length, at.dlq.parked.length]).toEqual([1, 0]);
      const older = worker();
      await older.run([make(OLDEST - 1)]);
      expect(older.parkedAs()).toEqual([["m-1", "stale"]]);
      expect(older.table.sent).toEqual([]);
    });
  }

  it("a rewards.firstSentAt ahead of the clock is refused even when SentTimestamp is now", async () => {
    const w = worker();
    await w.run([record(article("ann", "a"), "m-1", { sentAt: NOW, firstSentAt: iso(NOW + AHEAD + 1) })]);
    expect(w.parkedAs()).toEqual([["m-1", "invalid_event"]]);
  });

  it("streak.day: a day that starts at the oldest judgeable instant (00:00 UTC) is paid; the day before is stale", async () => {
    // Far east of UTC (the test projects run at +14) a local-time parse of the day's start moves it 14 h earlier.
    const oldestDay = iso(OLDEST).slice(0, 10);
    const at = worker();
    await at.run([record(streak("ann", oldestDay, iso(NOW)), "m-1")]);
    expect([at.table.sent.length, at.dlq.parked.length]).toEqual([1, 0]);
    const before = worker();
    await before.run([record(streak("ann", iso(OLDEST - DAY).slice(0, 10), iso(NOW)), "m-1")]);
    expect(before.parkedAs()).toEqual([["m-1", "stale"]]);
  });

  it("streak.day: a day up to the event time's UTC date + 1 is paid; the day after is invalid_event", async () => {
    // The event's time is late on Nov 30 in UTC (already Dec 1 in most of Asia): Dec 1 is its date + 1.
    const time = iso(NOW - 1);
    const ok = worker();
    await ok.run([record(streak("ann", "2026-12-01", time), "m-1")]);
    expect([ok.table.sent.length, ok.dlq.parked.length]).toEqual([1, 0]);
    const late = worker();
    await late.run([record(streak("ann", "2026-12-02", time), "m-1")]);
    expect(late.parkedAs()).toEqual([["m-1", "invalid_event"]]);
  });

  it("streak.day without a time: the day is judged against SentTimestamp's UTC date", async () => {
    const w = worker();
    await w.run([record(streak("ann", "2026-12-02"), "m-1", { sentAt: NOW - 1 })]);
    expect(w.parkedAs()).toEqual([["m-1", "invalid_event"]]);
  });

  it("signup.completed is kept forever: a 10-year-old event is paid", async () => {
    const w = worker();
    await w.run([record(event("signup.completed", { userId: "ann" }, iso(NOW - 3650 * DAY)), "m-1")]);
    expect([w.table.sent.length, w.dlq.parked.length]).toEqual([1, 0]);
  });
});

describe("the guard's clock (docs/awards.md#one-transaction-per-user)", () => {
  it("`:now` and expiresAt are whole seconds rounded down, never up", async () => {
    const w = worker();
    w.clock.now = NOW + 999; // .999 s: rounding would name the next second
    await w.run([record(article("ann", "a", iso(NOW)), "m-1")]);
    const put = w.table.sent[0]?.input.TransactItems?.[0]?.Put;
    expect(put?.ExpressionAttributeValues?.[":now"]).toBe(NOW / 1000);
    expect(put?.Item?.expiresAt).toBe(NOW / 1000 + 90 * 86_400);
    expect(put?.Item?.awardedAt).toBe(iso(NOW + 999));
  });
});

describe("retries", () => {
  it("a permanent error (an item's ValidationError) is tried exactly once, then parked rejected", async () => {
    const w = worker({ script: [cancelled("None", "ValidationError"), "ok", "ok", "ok"] });
    expect(await w.run([record(article("ann", "a", iso(NOW)), "m-1")])).toEqual({ batchItemFailures: [] });
    expect(w.table.sent).toHaveLength(1);
    expect(w.parkedAs()).toEqual([["m-1", "rejected"]]);
  });

  it("a top-level ValidationException (configuration) is tried once and failed, never parked", async () => {
    const error = Object.assign(new Error("bad schema"), { name: "ValidationException" });
    const w = worker({ script: [error, "ok"] });
    expect(await w.run([record(article("ann", "a", iso(NOW)), "m-1")])).toEqual({
      batchItemFailures: [{ itemIdentifier: "m-1" }],
    });
    expect(w.table.sent).toHaveLength(1);
    expect(w.dlq.parked).toEqual([]);
  });

  it("a transient error is retried byte-identically up to the policy's attempts, then failed", async () => {
    const w = worker({ script: [throttled(), throttled(), throttled(), throttled(), "ok"] });
    expect(await w.run([record(article("ann", "a", iso(NOW)), "m-1")])).toEqual({
      batchItemFailures: [{ itemIdentifier: "m-1" }],
    });
    expect(w.table.sent).toHaveLength(4);
    expect(new Set(w.table.sent.map((s) => JSON.stringify(s.input))).size).toBe(1);
    expect(w.dlq.parked).toEqual([]);
  });

  it("retries stop at the invocation's deadline: no attempt starts after it, each carries a signal", async () => {
    // Each attempt takes 1.1 s of the clock; the invocation has 10 s with a 6.5 s margin: 3.5 s to work.
    const policy: RetryPolicy = { maxAttempts: 50, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 600_000 };
    const w = worker({ script: Array.from({ length: 50 }, throttled), stepMs: 1100, policy });
    const handler = createHandler({
      tableName: "rewards",
      stage: "test",
      dlqUrl: "http://localhost/000000000000/rewards-dlq",
      concurrency: 1,
      dynamo: w.table.client,
      sqs: w.dlq.sqs,
      logger: createLogger({ level: "silent" }),
      clock: () => w.clock.now,
      retryPolicy: policy,
      safetyMarginMs: 6500,
      emitMetrics: () => {},
    });
    const context = { ...lambdaContext(10_000), getRemainingTimeInMillis: () => 10_000 };
    const response = await handler(sqsEvent([record(article("ann", "a", iso(NOW)), "m-1")]), context);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: "m-1" }] });
    expect(w.table.sent.map((s) => s.at - NOW)).toEqual([0, 1100, 2200, 3300]);
    expect(w.table.sent.every((s) => s.signal)).toBe(true);
  });
});

describe("parking (docs/operations.md#the-dead-letter-queue)", () => {
  it("a replayed message parked again keeps the rewards.firstSentAt it came with, not its own SentTimestamp", async () => {
    const w = worker();
    const firstSentAt = iso(NOW - 80 * DAY);
    await w.run([record("{", "m-1", { sentAt: NOW - 1000, firstSentAt })]);
    expect(w.dlq.parked[0]?.MessageAttributes?.[PARK_ATTRIBUTES.firstSentAt]?.StringValue).toBe(firstSentAt);
  });

  it("a DLQ that never answers is abandoned at the deadline: the message is failed, the batch ends", async () => {
    // Real time here: the send's abort signal is a real timer.
    const sqs = {
      send: (_command: unknown, options?: { abortSignal?: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          options?.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason));
        }),
    } as unknown as SQSClient;
    const handler = createHandler({
      tableName: "rewards",
      stage: "test",
      dlqUrl: "http://localhost/000000000000/rewards-dlq",
      concurrency: 1,
      dynamo: memoryTable({ now: NOW }).client,
      sqs,
      logger: createLogger({ level: "silent" }),
      safetyMarginMs: 100,
      emitMetrics: () => {},
    });
    const started = Date.now();
    const response = await handler(sqsEvent([record("{", "m-1")]), lambdaContext(400));
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: "m-1" }] });
    expect(Date.now() - started).toBeLessThan(2_000);
  }, 5_000);
});

describe("FIFO groups after a parked message (docs/awards.md#one-transaction-per-user)", () => {
  it("a parked message is acknowledged and its group goes on", async () => {
    const w = worker();
    const response = await w.run([
      record("{", "m-1", { groupId: "g" }),
      record(article("ann", "a", iso(NOW)), "m-2", { groupId: "g" }),
      record("[]", "m-3", { groupId: "g" }),
      record(article("ann", "b", iso(NOW)), "m-4", { groupId: "g" }),
    ]);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(w.parkedAs()).toEqual([
      ["m-1", "invalid_json"],
      ["m-3", "invalid_event"],
    ]);
    expect([...w.table.guards.keys()].sort()).toEqual([
      "IDEM#ann#a#article.completed",
      "IDEM#ann#b#article.completed",
    ]);
  });

  it("a failed message stops its group (the rest are redelivered in order); other groups go on", async () => {
    const w = worker({ script: [throttled(), throttled(), throttled(), throttled()] });
    const response = await w.run([
      record(article("ann", "a", iso(NOW)), "m-1", { groupId: "g" }),
      record(article("ann", "b", iso(NOW)), "m-2", { groupId: "g" }),
      record("{", "m-3", { groupId: "g" }),
    ]);
    expect(response).toEqual({
      batchItemFailures: [{ itemIdentifier: "m-1" }, { itemIdentifier: "m-2" }, { itemIdentifier: "m-3" }],
    });
    expect(w.dlq.parked).toEqual([]);
  });

  it("without a DLQ a message that belongs in it is failed, and stops its FIFO group", async () => {
    const w = worker({ dlqUrl: "" });
    const response = await w.run([
      record("{", "m-1", { groupId: "g" }),
      record(article("ann", "a", iso(NOW)), "m-2", { groupId: "g" }),
    ]);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: "m-1" }, { itemIdentifier: "m-2" }] });
    expect(w.table.sent).toEqual([]);
  });
});
