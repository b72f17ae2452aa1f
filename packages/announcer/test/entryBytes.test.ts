import type { EventBridgeClient, PutEventsRequestEntry } from "@aws-sdk/client-eventbridge";
import { createLogger, type RetryPolicy } from "@rewards/core/aws";
import { guardItem, lambdaContext, streamEvent, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { processBatch } from "../src";

/**
 * EventBridge sizes an entry as the UTF-8 bytes of its Source, DetailType, Detail and
 * Resources, plus 14 for Time, and refuses a PutEvents call over 256 KB (262,144 bytes).
 * Measured here on what the client is handed, independently of the announcer's own sizing.
 */
const MAX_CALL = 256 * 1024;
const EMOJI = "😀";
const entryBytes = (e: PutEventsRequestEntry) =>
  Buffer.byteLength(
    `${e.Source ?? ""}${e.DetailType ?? ""}${e.Detail ?? ""}${(e.Resources ?? []).join("")}`,
  ) + 14;

function bus(
  answer: (call: number) => "ok" | Error = () => "ok",
  stepMs = 0,
  clock = { now: 1_800_000_000_000 },
) {
  const calls: Array<{ entries: PutEventsRequestEntry[]; at: number; signal: boolean }> = [];
  const client = {
    async send(
      command: { input: { Entries: PutEventsRequestEntry[] } },
      options?: { abortSignal?: AbortSignal },
    ) {
      calls.push({
        entries: command.input.Entries,
        at: clock.now,
        signal: options?.abortSignal !== undefined,
      });
      clock.now += stepMs;
      const a = answer(calls.length);
      if (a instanceof Error) throw a;
      return {
        FailedEntryCount: 0,
        Entries: command.input.Entries.map((_, i) => ({ EventId: `e-${calls.length}-${i}` })),
      };
    },
  } as unknown as EventBridgeClient;
  return { calls, client, clock };
}

const policy: RetryPolicy = { maxAttempts: 50, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 600_000 };
const deps = (client: EventBridgeClient, clock: { now: number }, overrides = {}) => ({
  busName: "rewards-bus",
  stage: "test",
  eventBridge: client,
  logger: createLogger({ level: "silent" }),
  retryPolicy: policy,
  clock: () => clock.now,
  emitMetrics: () => {},
  ...overrides,
});
/** A guard whose eventId is `eventId` (the stream carries what the table holds). */
const guard = (n: number, eventId: string) =>
  streamRecord("INSERT", guardItem(`user${n}#a#article.completed`, { userId: `user${n}`, eventId }));

describe("the announcer's PutEvents calls fit 256 KB, measured in UTF-8 bytes", () => {
  it("ten grants of 40 KB in bytes (20 KB in UTF-16 units) are split into calls under 256 KB", async () => {
    const b = bus();
    const records = Array.from({ length: 10 }, (_, n) => guard(n, EMOJI.repeat(10_000)));
    const result = await processBatch(deps(b.client, b.clock), streamEvent(records), lambdaContext());
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(b.calls.map((c) => c.entries.length)).toEqual([6, 4]);
    for (const call of b.calls) {
      expect(call.entries.reduce((sum, e) => sum + entryBytes(e), 0)).toBeLessThanOrEqual(MAX_CALL);
    }
    expect(b.calls.flatMap((c) => c.entries.map((e) => JSON.parse(String(e.Detail)).subject))).toEqual(
      records.map((_, n) => `user${n}`),
    );
  });

  it("as many grants as fit share one call: a call's bytes are at most 256 KB and the next grant would pass it", async () => {
    const b = bus();
    const records = Array.from({ length: 10 }, (_, n) =>
      guard(n, `${EMOJI.repeat(6_000)}${"€".repeat(n * 10)}`),
    );
    await processBatch(deps(b.client, b.clock), streamEvent(records), lambdaContext());
    const sizes = b.calls.map((c) => c.entries.reduce((sum, e) => sum + entryBytes(e), 0));
    for (let i = 0; i < b.calls.length; i++) {
      expect(sizes[i]).toBeLessThanOrEqual(MAX_CALL);
      const next = b.calls[i + 1]?.entries[0];
      if (next) expect((sizes[i] ?? 0) + entryBytes(next)).toBeGreaterThan(MAX_CALL);
    }
    expect(b.calls.flatMap((c) => c.entries).length).toBe(10);
  });
});

describe("the 256 KB boundary, Time's 14 bytes included", () => {
  /** The entry bytes of a grant whose eventId is `n` ASCII characters, as sent. */
  async function sizeWith(n: number): Promise<number> {
    const b = bus();
    await processBatch(deps(b.client, b.clock), streamEvent([guard(0, "x".repeat(n))]), lambdaContext());
    return entryBytes(b.calls[0]?.entries[0] as PutEventsRequestEntry);
  }

  it("two grants of exactly 256 KB together share a call; one byte more splits them", async () => {
    const base = (await sizeWith(1)) - 1; // the bytes of everything but the eventId
    const half = MAX_CALL / 2 - base;
    const run = async (extra: number) => {
      const b = bus();
      const records = [guard(0, "x".repeat(half)), guard(1, "x".repeat(half + extra))];
      await processBatch(deps(b.client, b.clock), streamEvent(records), lambdaContext());
      return b.calls.map((c) => c.entries.reduce((sum, e) => sum + entryBytes(e), 0));
    };
    expect(await run(0)).toEqual([MAX_CALL]);
    expect(await run(1)).toEqual([MAX_CALL / 2, MAX_CALL / 2 + 1]);
  });
});

describe("at most 10 entries a PutEvents call", () => {
  it("25 small grants go in calls of 10, 10 and 5, in order", async () => {
    const b = bus();
    const records = Array.from({ length: 25 }, (_, n) => guard(n, `evt-${n}`));
    await processBatch(deps(b.client, b.clock), streamEvent(records), lambdaContext());
    expect(b.calls.map((c) => c.entries.length)).toEqual([10, 10, 5]);
  });
});

describe("the announcer's retries end by the invocation's deadline", () => {
  it("throttled calls are retried only while the deadline allows; each carries a signal; the record is reported", async () => {
    const throttled = Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" });
    const b = bus(() => throttled, 1100);
    const start = b.clock.now;
    const context = { ...lambdaContext(10_000), getRemainingTimeInMillis: () => 10_000 };
    const record = guard(1, "evt-1");
    const result = await processBatch(
      deps(b.client, b.clock, { safetyMarginMs: 6500 }),
      streamEvent([record]),
      context,
    );
    expect(result.response).toEqual({
      batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber }],
    });
    expect(b.calls.map((c) => c.at - start)).toEqual([0, 1100, 2200, 3300]);
    expect(b.calls.every((c) => c.signal)).toBe(true);
  });

  it("a configuration error (access denied) is tried once", async () => {
    const denied = Object.assign(new Error("denied"), { name: "AccessDeniedException" });
    const b = bus(() => denied);
    const record = guard(1, "evt-1");
    const result = await processBatch(deps(b.client, b.clock), streamEvent([record]), lambdaContext());
    expect(result.response).toEqual({
      batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber }],
    });
    expect(b.calls).toHaveLength(1);
  });
});

describe("capped awards (docs/events.md#the-daily-cap)", () => {
  const capped = (extra: Record<string, unknown> = {}) =>
    streamRecord(
      "INSERT",
      guardItem("user1#a#article.completed", { userId: "user1", amount: 0, requested: 20, ...extra }),
    );

  it("a guard with amount 0 (capped to nothing) is acknowledged and announces nothing", async () => {
    const b = bus();
    const result = await processBatch(deps(b.client, b.clock), streamEvent([capped()]), lambdaContext());
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(b.calls).toEqual([]);
    expect(result.counts).toEqual({ announced: 0, skipped: 1, failed: 0 });
  });

  it("a 0-XP award revoked is still announced, as reward.revoked", async () => {
    const b = bus();
    const record = capped({ revokedAt: "2026-12-01T12:00:00.000Z", revokedReason: "producer bug" });
    const result = await processBatch(deps(b.client, b.clock), streamEvent([record]), lambdaContext());
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(b.calls.flatMap((c) => c.entries.map((e) => e.DetailType))).toEqual(["reward.revoked"]);
  });
});
