import { Writable } from "node:stream";
import { grantId } from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import { guardItem, lambdaContext, streamEvent, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { createHandler, type HistoryDeps, processBatch } from "../src";

type PutInput = { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string };

const conditionFailed = () =>
  Object.assign(new Error("The conditional request failed"), { name: "ConditionalCheckFailedException" });
const throttled = () =>
  Object.assign(new Error("Rate of requests exceeds the allowed throughput"), {
    name: "ProvisionedThroughputExceededException",
  });

/**
 * The table, faked: every history item PutCommand's input in call order (`fail(input)` may
 * throw for one); the progress' calls (kept days, profile, achievements) in `progress`,
 * answered as a table that holds nothing.
 */
function fakeTable(fail: (input: PutInput) => Error | undefined = () => undefined) {
  const puts: PutInput[] = [];
  const progress: unknown[] = [];
  const dynamo = {
    async send(command: { input: PutInput }) {
      if (!String(command.input.Item?.sk ?? "").startsWith("AWARD#")) {
        progress.push(command.input);
        return {};
      }
      puts.push(command.input);
      const error = fail(command.input);
      if (error) throw error;
      return {};
    },
  };
  return { puts, progress, dynamo };
}

function deps(dynamo: HistoryDeps["dynamo"], overrides: Partial<HistoryDeps> = {}) {
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
      tableName: "rewards",
      stage: "test",
      historyDays: 400,
      dynamo,
      logger: createLogger({ destination, level: "debug", name: "rewards-history" }),
      clock: () => 1_700_000_000_000,
      emitMetrics: (line: string) => metrics.push(JSON.parse(line)),
      ...overrides,
    } satisfies HistoryDeps,
  };
}

const KEY1 = "user1#a1#article.completed";
const guard = (n: number, overrides: Record<string, unknown> = {}) =>
  guardItem(`user${n}#a${n}#article.completed`, { userId: `user${n}`, eventId: `evt-${n}`, ...overrides });
const profile = { pk: "USER#user1", sk: "PROFILE", userId: "user1", xp: 20, awards: 1 };
const seq = (n: number) => String(200_000_000_000_000_000_000n + BigInt(n));
const record = (n: number, image: Record<string, unknown>, eventName: "INSERT" | "MODIFY" = "INSERT") =>
  streamRecord(eventName, image, { sequenceNumber: seq(n) });

describe("processBatch", () => {
  it("puts each guard image's history item, exactly, conditional unless revoked", async () => {
    const table = fakeTable();
    const { deps: history, lines, metrics } = deps(table.dynamo);
    const eventTime = "2026-11-28T23:59:59.000+09:00";
    const capped = guard(2, { amount: 0, requested: 20, eventTime, data: { articleSlug: "a2" } });
    const revoked = guard(3, { revokedAt: "2026-11-30T08:00:00.000Z", revokedReason: "fraud" });
    const result = await processBatch(
      history,
      streamEvent([
        record(1, guard(1, { eventTime, data: { articleSlug: "a1" } })),
        record(2, profile, "MODIFY"),
        record(3, capped, "MODIFY"),
        record(4, revoked, "MODIFY"),
        streamRecord("REMOVE", guard(4), { sequenceNumber: seq(5) }),
      ]),
    );
    const awardedAt = "2026-11-29T10:00:01.234Z";
    const id1 = grantId(KEY1, awardedAt);
    expect(id1).toMatch(/^grant-/);
    expect(table.puts[0]).toEqual({
      TableName: "rewards",
      ConditionExpression: "attribute_not_exists(revokedAt)",
      Item: {
        pk: "USER#user1",
        sk: `AWARD#${awardedAt}#${id1}`,
        id: id1,
        type: "article.completed",
        data: { articleSlug: "a1" },
        xp: 20,
        eventId: "evt-1",
        eventTime,
        earnedOn: "2026-11-28",
        awardedAt,
        intentKey: KEY1,
        expiresAt: 1_830_506_401,
      },
    });
    expect(table.puts[1]?.Item).toMatchObject({ xp: 0, requestedXp: 20, pk: "USER#user2" });
    expect(table.puts[1]?.ConditionExpression).toBe("attribute_not_exists(revokedAt)");
    expect(table.puts[2]).toEqual({
      TableName: "rewards",
      Item: expect.objectContaining({ revokedAt: "2026-11-30T08:00:00.000Z", revokedReason: "fraud" }),
    });
    expect(table.puts).toHaveLength(3);
    // Two weeks put: user1's and user3's (revoked before counted); user2's capped award changes no week.
    expect(result.counts).toEqual({ written: 3, skipped: 2, failed: 0, achieved: 0, boarded: 2 });
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(lines.filter((line) => line.msg === "batch")).toEqual([
      expect.objectContaining({ written: 3, skipped: 2, failed: 0, durationMs: 0 }),
    ]);
    expect(metrics).toEqual([
      {
        _aws: {
          Timestamp: 1_700_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: "Rewards",
              Dimensions: [["service", "stage"]],
              Metrics: [
                { Name: "written", Unit: "Count" },
                { Name: "skipped", Unit: "Count" },
                { Name: "failed", Unit: "Count" },
                { Name: "achieved", Unit: "Count" },
                { Name: "boarded", Unit: "Count" },
                { Name: "batchDuration", Unit: "Milliseconds" },
              ],
            },
          ],
        },
        service: "rewards-history",
        // The deps' stage (REWARDS_STAGE): the stage's alarms filter on it.
        stage: "test",
        written: 3,
        skipped: 2,
        failed: 0,
        achieved: 0,
        boarded: 2,
        batchDuration: 0,
      },
    ]);
  });

  it("REWARDS_HISTORY_DAYS=0 writes no expiresAt", async () => {
    const table = fakeTable();
    await processBatch(deps(table.dynamo, { historyDays: 0 }).deps, streamEvent([record(1, guard(1))]));
    expect(table.puts[0]?.Item).not.toHaveProperty("expiresAt");
  });

  it("acknowledges a failed condition (an older image after a revocation) as skipped", async () => {
    const table = fakeTable((input) => (input.Item.pk === "USER#user1" ? conditionFailed() : undefined));
    const { deps: history } = deps(table.dynamo);
    const result = await processBatch(history, streamEvent([record(1, guard(1)), record(2, guard(2))]));
    expect(result.counts).toEqual({ written: 1, skipped: 1, failed: 0, achieved: 0, boarded: 2 });
    expect(result.response).toEqual({ batchItemFailures: [] });
  });

  it("reports an unreadable guard image, and only it", async () => {
    const table = fakeTable();
    const { deps: history } = deps(table.dynamo);
    const result = await processBatch(
      history,
      streamEvent([record(1, guard(1)), record(2, guard(2, { amount: "lots" })), record(3, guard(3))]),
    );
    expect(result.response).toEqual({ batchItemFailures: [{ itemIdentifier: seq(2) }] });
    expect(result.counts).toEqual({ written: 2, skipped: 0, failed: 1, achieved: 0, boarded: 2 });
    expect(table.puts.map((put) => put.Item.pk)).toEqual(["USER#user1", "USER#user3"]);
  });

  it("reports a failed put and every later record, in stream order; earlier ones are acknowledged", async () => {
    const table = fakeTable((input) => (input.Item.pk === "USER#user2" ? throttled() : undefined));
    const { deps: history, lines } = deps(table.dynamo);
    const result = await processBatch(
      history,
      streamEvent([
        record(1, guard(1)),
        record(2, guard(2)),
        record(3, guard(3)),
        record(4, profile, "MODIFY"),
        record(5, guard(5)),
      ]),
    );
    expect(result.response).toEqual({
      batchItemFailures: [seq(2), seq(3), seq(4), seq(5)].map((itemIdentifier) => ({ itemIdentifier })),
    });
    expect(result.counts).toEqual({ written: 1, skipped: 0, failed: 4, achieved: 0, boarded: 3 });
    expect(result.failures[0]?.reason).toBe(
      "ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput",
    );
    expect(lines.filter((line) => line.level === "warn" || line.level === 40)).toHaveLength(4);
  });

  it("a failed put's warn line names the call: in words and as fields", async () => {
    const call = {
      service: "DynamoDB",
      operation: "PutItem",
      resource: "table rewards",
      endpoint: "https://dynamodb.us-east-1.amazonaws.com",
    };
    // As our clients throw it: the SDK's error, with the call it was (withNamedCalls).
    const table = fakeTable((input) =>
      input.Item.pk === "USER#user1" ? Object.assign(throttled(), { awsCall: call }) : undefined,
    );
    const { deps: history, lines } = deps(table.dynamo);
    const result = await processBatch(history, streamEvent([record(1, guard(1))]));
    const reason =
      "DynamoDB PutItem on table rewards at https://dynamodb.us-east-1.amazonaws.com: throttled: ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput";
    expect(result.failures).toEqual([{ sequenceNumber: seq(1), reason, call }]);
    expect(lines.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({ msg: "not written; the record will be retried", reason, call }),
    ]);
  });

  it("a reader's week that fails carries its call too", async () => {
    const call = {
      service: "DynamoDB",
      operation: "GetItem",
      resource: "table rewards",
      endpoint: "http://127.0.0.1:1",
    };
    const table = fakeTable();
    const dynamo = {
      async send(command: { input: PutInput & { Key?: { sk?: string } } }) {
        // The week item's read fails (applyToWeek reads the week before it writes it).
        if (String(command.input.Key?.sk ?? "").startsWith("WEEK#"))
          throw Object.assign(throttled(), { awsCall: call });
        return table.dynamo.send(command);
      },
    };
    const { deps: history } = deps(dynamo);
    const result = await processBatch(history, streamEvent([record(1, guard(1))]));
    expect(result.failures).toEqual([
      {
        sequenceNumber: seq(1),
        reason: expect.stringMatching(
          /^board: week \d{4}-W\d{2}: DynamoDB GetItem on table rewards at http:\/\/127\.0\.0\.1:1: throttled: /,
        ),
        call,
      },
    ]);
  });

  it("puts the records of one item key in stream order, one at a time, and stops at the first failure", async () => {
    const image = guard(1);
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const dynamo = {
      async send(command: { input: PutInput }) {
        // The reader's progress after the puts: a table that holds nothing.
        if (!String(command.input.Item?.sk ?? "").startsWith("AWARD#")) return {};
        calls++;
        const call = calls;
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        order.push(String(command.input.Item.revokedAt ?? "unrevoked"));
        if (call === 2) throw throttled();
        return {};
      },
    };
    const { deps: history } = deps(dynamo);
    const revokedAt = "2026-11-30T08:00:00.000Z";
    const result = await processBatch(
      history,
      streamEvent([
        record(1, image),
        record(2, { ...image, revokedAt, revokedReason: "fraud" }, "MODIFY"),
        record(3, image, "MODIFY"),
      ]),
    );
    expect(order).toEqual(["unrevoked", revokedAt]);
    expect(most).toBe(1);
    expect(result.response.batchItemFailures).toEqual([
      { itemIdentifier: seq(2) },
      { itemIdentifier: seq(3) },
    ]);
  });

  it("puts different item keys at once, at most `concurrency`", async () => {
    let inFlight = 0;
    let most = 0;
    const dynamo = {
      async send() {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return {};
      },
    };
    const { deps: history } = deps(dynamo, { concurrency: 3 });
    const result = await processBatch(
      history,
      streamEvent([1, 2, 3, 4, 5, 6, 7].map((n) => record(n, guard(n)))),
    );
    expect(most).toBe(3);
    expect(result.counts.written).toBe(7);
  });

  it("the handler answers Lambda's batch response", async () => {
    const table = fakeTable(() => throttled());
    const handler = createHandler(deps(table.dynamo).deps);
    expect(await handler(streamEvent([record(1, guard(1))]), lambdaContext())).toEqual({
      batchItemFailures: [{ itemIdentifier: seq(1) }],
    });
  });
});
