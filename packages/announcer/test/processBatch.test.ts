import { Writable } from "node:stream";
import type {
  EventBridgeClient,
  PutEventsRequestEntry,
  PutEventsResultEntry,
} from "@aws-sdk/client-eventbridge";
import { type Announcement, grantId, guardImageSchema, rewardGranted } from "@rewards/core";
import { createLogger, type RetryPolicy } from "@rewards/core/aws";
import { guardItem, lambdaContext, streamEvent, streamRecord } from "@rewards/testing";
import { describe, expect, it, vi } from "vitest";
import { type AnnouncerDeps, busEntry, createHandler, processBatch, readStreamRecord } from "../src";

const noWait: RetryPolicy = { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 };

type Answer = PutEventsResultEntry[] | Error | "hang";

/**
 * EventBridge's answers, scripted: each call takes the next answer (an entry result per
 * request entry, an error, or no answer until aborted); past the script every entry succeeds.
 * Faults the local bus does not produce (throttled entries, denied calls) are tested here.
 */
function scriptedBus(...answers: Answer[]) {
  const calls: PutEventsRequestEntry[][] = [];
  const client = {
    async send(
      command: { input: { Entries: PutEventsRequestEntry[] } },
      options?: { abortSignal?: AbortSignal },
    ) {
      calls.push(command.input.Entries);
      const answer = answers[calls.length - 1];
      if (answer === "hang") {
        return new Promise((_resolve, reject) =>
          options?.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason)),
        );
      }
      if (answer instanceof Error) throw answer;
      const entries: PutEventsResultEntry[] =
        answer ?? command.input.Entries.map((_, i) => ({ EventId: `ok-${calls.length}-${i}` }));
      return { FailedEntryCount: entries.filter((e) => e.ErrorCode).length, Entries: entries };
    },
  } as unknown as EventBridgeClient;
  return { calls, client };
}

function deps(client: EventBridgeClient, overrides: Partial<AnnouncerDeps> = {}) {
  const lines: Record<string, unknown>[] = [];
  const metrics: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return {
    lines,
    metrics,
    deps: {
      busName: "rewards-bus",
      stage: "test",
      eventBridge: client,
      logger: createLogger({ destination, level: "debug", name: "rewards-announcer" }),
      retryPolicy: noWait,
      clock: () => 1_700_000_000_000,
      emitMetrics: (line: string) => metrics.push(JSON.parse(line)),
      ...overrides,
    } satisfies AnnouncerDeps,
  };
}

const guard = (n: number, overrides: Record<string, unknown> = {}) =>
  guardItem(`user${n}#a${n}#article.completed`, { userId: `user${n}`, eventId: `evt-${n}`, ...overrides });
const profile = { pk: "USER#user1", sk: "PROFILE", userId: "user1", xp: 20, awards: 1 };
const detailOf = (entry: PutEventsRequestEntry | undefined) => JSON.parse(String(entry?.Detail));
/** The emission an announcement of an award names (an achievement names none). */
const eventIdOf = (announcement: Announcement) =>
  announcement.type === "reward.achieved" ? undefined : announcement.data.eventId;

describe("processBatch", () => {
  it("publishes each guard INSERT or MODIFY as reward.granted and acknowledges the rest", async () => {
    const bus = scriptedBus();
    const { deps: announcer, lines, metrics } = deps(bus.client);
    const replaced = guard(2, { awardedAt: "2026-12-29T10:00:00.000Z" });
    const result = await processBatch(
      announcer,
      streamEvent([
        streamRecord("MODIFY", profile),
        streamRecord("INSERT", guard(1)),
        streamRecord("REMOVE", guard(3)),
        streamRecord("MODIFY", replaced),
      ]),
      lambdaContext(),
    );
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(result.counts).toEqual({ announced: 2, skipped: 2, failed: 0 });
    expect(bus.calls).toHaveLength(1);
    expect(bus.calls[0]?.map(({ Detail, ...rest }) => rest)).toEqual([
      {
        EventBusName: "rewards-bus",
        Source: "rewards",
        DetailType: "reward.granted",
        Time: new Date("2026-11-29T10:00:01.234Z"),
      },
      {
        EventBusName: "rewards-bus",
        Source: "rewards",
        DetailType: "reward.granted",
        Time: new Date("2026-12-29T10:00:00.000Z"),
      },
    ]);
    expect(bus.calls[0]?.map(detailOf)).toEqual(result.published);
    expect(result.published.map((grant) => [grant.id, grant.subject, eventIdOf(grant)])).toEqual([
      [grantId("user1#a1#article.completed", "2026-11-29T10:00:01.234Z"), "user1", "evt-1"],
      [grantId("user2#a2#article.completed", "2026-12-29T10:00:00.000Z"), "user2", "evt-2"],
    ]);
    expect(lines.filter((line) => line.msg === "announced")).toEqual([
      expect.objectContaining({
        level: 20,
        id: result.published[0]?.id,
        intentKey: "user1#a1#article.completed",
      }),
      expect.objectContaining({ level: 20, id: result.published[1]?.id }),
    ]);
    expect(lines.at(-1)).toMatchObject({
      level: 30,
      msg: "batch",
      announced: 2,
      skipped: 2,
      failed: 0,
      durationMs: 0,
    });
    expect(metrics).toEqual([
      {
        _aws: {
          Timestamp: 1_700_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: "Rewards",
              Dimensions: [["service", "stage"]],
              Metrics: [
                { Name: "announced", Unit: "Count" },
                { Name: "skipped", Unit: "Count" },
                { Name: "failed", Unit: "Count" },
                { Name: "batchDuration", Unit: "Milliseconds" },
              ],
            },
          ],
        },
        service: "rewards-announcer",
        // The deps' stage (REWARDS_STAGE): the stage's alarms filter on it.
        stage: "test",
        announced: 2,
        skipped: 2,
        failed: 0,
        batchDuration: 0,
      },
    ]);
  });

  it("sends at most 10 entries a call, in stream order", async () => {
    const bus = scriptedBus();
    const records = Array.from({ length: 23 }, (_, i) => streamRecord("INSERT", guard(i)));
    const result = await processBatch(deps(bus.client).deps, streamEvent(records));
    expect(bus.calls.map((call) => call.length)).toEqual([10, 10, 3]);
    expect(bus.calls.flat().map((entry) => detailOf(entry).data.eventId)).toEqual(
      Array.from({ length: 23 }, (_, i) => `evt-${i}`),
    );
    expect(result.counts.announced).toBe(23);
  });

  it("keeps each call under 256 KB", async () => {
    const bus = scriptedBus();
    const big = (n: number) =>
      streamRecord("INSERT", guard(n, { eventId: `evt-${"x".repeat(100 * 1024)}-${n}` }));
    const result = await processBatch(
      deps(bus.client).deps,
      streamEvent([big(1), big(2), big(3), big(4), big(5)]),
    );
    expect(bus.calls.map((call) => call.length)).toEqual([2, 2, 1]);
    for (const call of bus.calls) {
      const bytes = call.reduce(
        (sum, e) => sum + Buffer.byteLength(`${e.Source}${e.DetailType}${e.Detail}`) + 14,
        0,
      );
      expect(bytes).toBeLessThanOrEqual(256 * 1024);
    }
    expect(result.counts.announced).toBe(5);
  });

  it("puts entries that together make exactly 256 KB in one call, and splits one byte more", async () => {
    // An entry counts Source + DetailType + Detail + 14 bytes: size each grant's detail to match.
    const sized = (n: number, entryBytes: number) => {
      const base = (eventId: string) => {
        const grant = rewardGranted(guardImageSchema.parse(guard(n, { eventId })));
        const entry = busEntry(grant, "b");
        return Buffer.byteLength(`${entry.Source}${entry.DetailType}${entry.Detail}`) + 14;
      };
      const padding = entryBytes - base("e");
      return streamRecord("INSERT", guard(n, { eventId: `e${"x".repeat(padding)}` }));
    };
    const half = (256 * 1024) / 2;
    const exact = scriptedBus();
    await processBatch(deps(exact.client).deps, streamEvent([sized(1, half), sized(2, half)]));
    expect(exact.calls.map((call) => call.length)).toEqual([2]);
    const over = scriptedBus();
    await processBatch(deps(over.client).deps, streamEvent([sized(1, half), sized(2, half + 1)]));
    expect(over.calls.map((call) => call.length)).toEqual([1, 1]);
  });

  it("sends an entry over 256 KB alone, and reports what EventBridge says of it", async () => {
    const tooLarge = Object.assign(new Error("Total size of the entries in the request is over the limit"), {
      name: "ValidationException",
    });
    const bus = scriptedBus(tooLarge);
    const huge = streamRecord("INSERT", guard(1, { eventId: `e${"x".repeat(300 * 1024)}` }));
    const result = await processBatch(
      deps(bus.client).deps,
      streamEvent([huge, streamRecord("INSERT", guard(2))]),
    );
    expect(bus.calls.map((call) => call.length)).toEqual([1, 1]);
    expect(result.failures).toEqual([
      {
        sequenceNumber: huge.dynamodb?.SequenceNumber,
        reason: "ValidationException: Total size of the entries in the request is over the limit",
        configuration: true,
      },
    ]);
    expect(result.published.map(eventIdOf)).toEqual(["evt-2"]);
  });

  it("treats an entry answered without an EventId, or not answered, as unpublished", async () => {
    const bus = scriptedBus([{ EventId: "e1" }, {}, { EventId: "e3", ErrorCode: "InternalFailure" }], [], []);
    const records = [1, 2, 3].map((n) => streamRecord("INSERT", guard(n)));
    const result = await processBatch(deps(bus.client).deps, streamEvent(records));
    expect(bus.calls.map((call) => call.map((entry) => detailOf(entry).data.eventId))).toEqual([
      ["evt-1", "evt-2", "evt-3"],
      ["evt-2", "evt-3"],
      ["evt-2", "evt-3"],
    ]);
    expect(result.failures.map(({ reason }) => reason)).toEqual([
      "NoAnswer: no EventId returned",
      "NoAnswer: no EventId returned",
    ]);
  });

  it("resends only the entries EventBridge failed", async () => {
    const bus = scriptedBus([
      { EventId: "e1" },
      { ErrorCode: "ThrottlingException", ErrorMessage: "slow down" },
      { EventId: "e3" },
    ]);
    const records = [1, 2, 3].map((n) => streamRecord("INSERT", guard(n)));
    const result = await processBatch(deps(bus.client).deps, streamEvent(records));
    expect(bus.calls.map((call) => call.map((entry) => detailOf(entry).data.eventId))).toEqual([
      ["evt-1", "evt-2", "evt-3"],
      ["evt-2"],
    ]);
    expect(result.response.batchItemFailures).toEqual([]);
    expect(result.counts).toEqual({ announced: 3, skipped: 0, failed: 0 });
  });

  it("reports by sequence number the awards still unpublished when retries run out", async () => {
    const failing = { ErrorCode: "InternalFailure", ErrorMessage: "try again" };
    const bus = scriptedBus([{ EventId: "e1" }, failing], [failing], [failing]);
    const records = [streamRecord("INSERT", guard(1)), streamRecord("INSERT", guard(2))];
    const { deps: announcer, lines } = deps(bus.client);
    const result = await processBatch(announcer, streamEvent(records));
    expect(bus.calls.map((call) => call.length)).toEqual([2, 1, 1]);
    expect(result.response).toEqual({
      batchItemFailures: [{ itemIdentifier: records[1]?.dynamodb?.SequenceNumber }],
    });
    expect(result.failures).toEqual([
      {
        sequenceNumber: records[1]?.dynamodb?.SequenceNumber,
        reason: "InternalFailure: try again",
        configuration: false,
      },
    ]);
    expect(result.published.map(eventIdOf)).toEqual(["evt-1"]);
    expect(lines.find((line) => line.level === 40)).toMatchObject({
      msg: "not announced; the record will be retried",
      reason: "InternalFailure: try again",
    });
  });

  it("a refused call's error line names the call: in words and as fields", async () => {
    const call = {
      service: "EventBridge",
      operation: "PutEvents",
      resource: "bus rewards-bus",
      endpoint: "https://events.us-east-1.amazonaws.com",
    };
    // As our clients throw it: the SDK's error, with the call it was (withNamedCalls).
    const denied = Object.assign(new Error("not authorized to perform events:PutEvents"), {
      name: "AccessDeniedException",
      awsCall: call,
    });
    const { deps: announcer, lines } = deps(scriptedBus(denied).client);
    const records = [streamRecord("INSERT", guard(1))];
    const result = await processBatch(announcer, streamEvent(records));
    const reason =
      "EventBridge PutEvents on bus rewards-bus at https://events.us-east-1.amazonaws.com: AccessDeniedException: not authorized to perform events:PutEvents";
    expect(result.failures).toEqual([
      { sequenceNumber: records[0]?.dynamodb?.SequenceNumber, reason, configuration: true, call },
    ]);
    expect(lines.filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({
        msg: "not announced: configuration problem, fix the deployment",
        reason,
        call,
      }),
    ]);
  });

  it("does not retry a call the deployment refuses, and says to fix the deployment", async () => {
    const denied = Object.assign(new Error("not authorized to perform events:PutEvents"), {
      name: "AccessDeniedException",
    });
    const bus = scriptedBus(denied);
    const { deps: announcer, lines, metrics } = deps(bus.client);
    const records = [
      streamRecord("INSERT", guard(1)),
      streamRecord("REMOVE", guard(2)),
      streamRecord("INSERT", guard(3)),
    ];
    const result = await processBatch(announcer, streamEvent(records));
    expect(bus.calls).toHaveLength(1);
    expect(result.response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([
      records[0]?.dynamodb?.SequenceNumber,
      records[2]?.dynamodb?.SequenceNumber,
    ]);
    expect(result.counts).toEqual({ announced: 0, skipped: 1, failed: 2 });
    expect(lines.filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({
        msg: "not announced: configuration problem, fix the deployment",
        reason: "AccessDeniedException: not authorized to perform events:PutEvents",
        configuration: true,
      }),
      expect.objectContaining({ configuration: true }),
    ]);
    expect(metrics[0]).toMatchObject({ announced: 0, skipped: 1, failed: 2 });
  });

  it("retries a call that failed in transit and reports it when the deadline comes", async () => {
    const reset = Object.assign(new Error("socket hang up"), { name: "Error", code: "ECONNRESET" });
    const recovered = scriptedBus(reset);
    const ok = await processBatch(
      deps(recovered.client).deps,
      streamEvent([streamRecord("INSERT", guard(1))]),
    );
    expect(recovered.calls).toHaveLength(2);
    expect(ok.counts.announced).toBe(1);

    // No answer at all: the call is aborted at the invocation's deadline (the clock is real here).
    const silent = scriptedBus("hang", "hang", "hang");
    const record = streamRecord("INSERT", guard(1));
    const late = await processBatch(
      deps(silent.client, { clock: Date.now, safetyMarginMs: 0 }).deps,
      streamEvent([record]),
      lambdaContext(50),
    );
    expect(late.response.batchItemFailures).toEqual([{ itemIdentifier: record.dynamodb?.SequenceNumber }]);
    expect(late.failures[0]?.reason).toMatch(/^TimeoutError: /);
  });

  it("reports a guard image it cannot read, and still publishes the rest", async () => {
    const bus = scriptedBus();
    const unreadable = streamRecord("INSERT", guard(1, { amount: "20" }));
    const noImage = streamRecord("MODIFY", guard(2), { newImage: null });
    const notJson = streamRecord("INSERT", guard(3), { newImage: { amount: { Q: "1" } as never } });
    const result = await processBatch(
      deps(bus.client).deps,
      streamEvent([unreadable, streamRecord("INSERT", guard(4)), noImage, notJson]),
    );
    expect(result.published.map(eventIdOf)).toEqual(["evt-4"]);
    expect(result.failures).toEqual([
      {
        sequenceNumber: unreadable.dynamodb?.SequenceNumber,
        reason: "amount: Invalid input: expected number, received string",
        configuration: false,
      },
      {
        sequenceNumber: noImage.dynamodb?.SequenceNumber,
        reason: "a guard write without its new image (the stream must show NEW_IMAGE)",
        configuration: false,
      },
      {
        sequenceNumber: notJson.dynamodb?.SequenceNumber,
        reason: expect.stringMatching(/^the new image is not DynamoDB JSON: /),
        configuration: false,
      },
    ]);
  });

  it('reports a record without a sequence number as "" (Lambda then retries the whole batch)', async () => {
    // An unreadable guard (amount 0 is a capped award, readable and announced as nothing).
    const record = streamRecord("INSERT", guard(1, { amount: "twenty" }));
    delete record.dynamodb?.SequenceNumber;
    const result = await processBatch(deps(scriptedBus().client).deps, streamEvent([record]));
    expect(result.response).toEqual({ batchItemFailures: [{ itemIdentifier: "" }] });
  });

  it("publishes nothing and calls nobody for a batch without awards", async () => {
    const bus = scriptedBus();
    const result = await processBatch(deps(bus.client).deps, { Records: [streamRecord("MODIFY", profile)] });
    expect(bus.calls).toEqual([]);
    expect(result.counts).toEqual({ announced: 0, skipped: 1, failed: 0 });
    expect((await processBatch(deps(bus.client).deps, {} as never)).counts).toEqual({
      announced: 0,
      skipped: 0,
      failed: 0,
    });
  });
});

describe("readStreamRecord", () => {
  const withKeys = (keys: Record<string, unknown>) => {
    const record = streamRecord("INSERT", guard(1));
    if (record.dynamodb) record.dynamodb.Keys = keys as never;
    return record;
  };

  it("skips what is not a guard write, however incomplete its keys", () => {
    const skipped = [
      withKeys({ pk: { S: "IDEM#user1#a1#article.completed" } }),
      withKeys({ sk: { S: "IDEM" } }),
      withKeys({ pk: { B: "SURFTQ==" }, sk: { S: "IDEM" } }),
      withKeys({ pk: { S: "USER#user1" }, sk: { S: "IDEM" } }),
      { ...streamRecord("INSERT", guard(1)), dynamodb: undefined },
    ];
    expect(skipped.map((record) => readStreamRecord(record).kind)).toEqual([
      "skip",
      "skip",
      "skip",
      "skip",
      "skip",
    ]);
    expect(
      readStreamRecord(withKeys({ pk: { S: "IDEM#user1#a1#article.completed" }, sk: { S: "IDEM" } })).kind,
    ).toBe("announce");
  });

  it("an award the daily cap left at 0 XP announces nothing; a cut one says what was asked", () => {
    expect(readStreamRecord(streamRecord("INSERT", guard(1, { amount: 0, requested: 20 }))).kind).toBe(
      "skip",
    );
    const cut = readStreamRecord(streamRecord("INSERT", guard(1, { amount: 5, requested: 20 })));
    expect(cut.kind === "announce" && cut.announcement.data).toMatchObject({ xp: 5, requestedXp: 20 });
    const whole = readStreamRecord(streamRecord("INSERT", guard(1)));
    expect(whole.kind === "announce" && whole.announcement.data).not.toHaveProperty("requestedXp");
  });

  it("a rule that pays 0 (no requested: the cap did not cut it) is announced, with xp 0 and its version (docs/rules.md)", () => {
    const zero = readStreamRecord(streamRecord("INSERT", guard(1, { amount: 0, rulesVersion: 2 })));
    expect(zero.kind).toBe("announce");
    expect(zero.kind === "announce" && zero.announcement).toMatchObject({
      type: "reward.granted",
      data: { xp: 0, rulesVersion: 2 },
    });
    expect(zero.kind === "announce" && zero.announcement.data).not.toHaveProperty("requestedXp");
  });

  it("a revoked guard is a reward.revoked (a capped one too); without its reason it is unreadable", () => {
    const revoked = { revokedAt: "2026-12-01T10:00:00.000Z", revokedReason: "producer bug" };
    const read = readStreamRecord(streamRecord("MODIFY", guard(1, { amount: 0, ...revoked })));
    expect(read.kind === "announce" && read.announcement).toMatchObject({
      type: "reward.revoked",
      time: "2026-12-01T10:00:00.000Z",
      data: { xp: 0, revokedAt: "2026-12-01T10:00:00.000Z", reason: "producer bug" },
    });
    expect(
      readStreamRecord(streamRecord("MODIFY", guard(1, { revokedAt: revoked.revokedAt }))),
    ).toMatchObject({
      kind: "unreadable",
      reason: "revokedReason: a revoked guard must say why",
    });
  });

  it("names every field of a guard image it cannot read", () => {
    const read = readStreamRecord(streamRecord("INSERT", guard(1, { amount: "20", userId: 7 })));
    expect(read).toMatchObject({
      kind: "unreadable",
      reason:
        "userId: Invalid input: expected string, received number; amount: Invalid input: expected number, received string",
    });
  });
});

describe("createHandler", () => {
  it("is the Lambda handler: the batch response, and the EMF line on stdout by default", async () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const { emitMetrics: _default, ...withoutMetrics } = deps(scriptedBus().client).deps;
      const handler = createHandler(withoutMetrics);
      const record = streamRecord("INSERT", guard(1, { amount: "20" }));
      expect(await handler(streamEvent([record]), lambdaContext())).toEqual({
        batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber }],
      });
    } finally {
      write.mockRestore();
    }
    expect(written).toHaveLength(1);
    expect(written[0]?.endsWith("}\n")).toBe(true);
    expect(JSON.parse(String(written[0]))).toMatchObject({ announced: 0, skipped: 0, failed: 1 });
  });
});

describe("busEntry", () => {
  it("is the entry docs/events.md describes: source rewards, detail-type reward.granted, time awardedAt, the CloudEvent as detail", () => {
    const bus = scriptedBus();
    expect(bus.calls).toEqual([]);
    const grant = {
      specversion: "1.0" as const,
      id: "grant-x",
      source: "/rewards" as const,
      type: "reward.granted" as const,
      time: "2026-11-29T10:00:01.234Z",
      subject: "u",
      datacontenttype: "application/json" as const,
      data: {
        userId: "u",
        eventType: "article.completed" as const,
        xp: 20,
        intentKey: "k",
        eventId: "e",
        awardedAt: "2026-11-29T10:00:01.234Z",
      },
    };
    expect(busEntry(grant, "arn:aws:events:us-east-1:1:event-bus/b")).toEqual({
      EventBusName: "arn:aws:events:us-east-1:1:event-bus/b",
      Source: "rewards",
      DetailType: "reward.granted",
      Time: new Date("2026-11-29T10:00:01.234Z"),
      Detail: JSON.stringify(grant),
    });
  });
});
