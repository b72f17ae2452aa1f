import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { awsClock } from "../src/awsClock";
import { revokeIntent } from "../src/revoke/revokeIntent";
import { revokeLines } from "../src/revoke/revokeLines";

const nowMs = Date.parse("2026-12-01T12:00:00.000Z");
const guard = {
  pk: "IDEM#u1#a#article.completed",
  sk: "IDEM",
  userId: "u1",
  type: "article.completed",
  amount: 20,
  eventId: "e-1",
  awardedAt: "2026-11-29T10:00:01.234Z",
};
const policy = { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 };
const named = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });
type Call = { kind: string; input: Record<string, unknown> };
const conditionFailed = () =>
  named("TransactionCanceledException", {
    CancellationReasons: [{ Code: "ConditionalCheckFailed" }, { Code: "None" }],
  });

type Read = Record<string, unknown> | undefined | Error;

/**
 * A table answering each call by its kind: GetItem from `reads` (a function is given the calls so
 * far), TransactWriteItems from `writes` (in turn; past them, success).
 */
function table(reads: Array<Read | ((calls: Call[]) => Read)>, writes: Array<Error | "ok"> = []) {
  const calls: Call[] = [];
  let r = 0;
  let w = 0;
  const dynamo = {
    async send(command: { constructor: { name: string }; input: Record<string, unknown> }) {
      const kind = command.constructor.name;
      calls.push({ kind, input: command.input });
      if (kind === "GetCommand") {
        const read = reads[Math.min(r++, reads.length - 1)];
        const answer = typeof read === "function" ? read(calls) : read;
        if (answer instanceof Error) throw answer;
        return { Item: answer };
      }
      const answer = writes[w++] ?? "ok";
      if (answer instanceof Error) throw answer;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { dynamo, calls };
}

const deps = (dynamo: DynamoDBDocumentClient, dryRun = false) => ({
  dynamo,
  tableName: "t",
  reason: "bot",
  dryRun,
  clock: () => nowMs,
  policy,
});

describe("revokeIntent", () => {
  it("reads consistently, then writes one transaction with a token reused across its retries", async () => {
    const { dynamo, calls } = table([guard], [named("ThrottlingException"), "ok"]);
    expect(await revokeIntent(4, "u1#a#article.completed", deps(dynamo))).toEqual({
      line: 4,
      verdict: "revoked",
      intentKey: "u1#a#article.completed",
      userId: "u1",
      xp: 20,
      revokedAt: "2026-12-01T12:00:00.000Z",
      revokedReason: "bot",
    });
    expect(calls.map((c) => c.kind)).toEqual(["GetCommand", "TransactWriteCommand", "TransactWriteCommand"]);
    expect(calls[0]?.input).toEqual({
      TableName: "t",
      Key: { pk: guard.pk, sk: "IDEM" },
      ConsistentRead: true,
    });
    expect(calls[1]?.input.ClientRequestToken).toEqual(expect.any(String));
    expect(calls[2]?.input).toEqual(calls[1]?.input);
  });

  it("a dry run only reads", async () => {
    const { dynamo, calls } = table([guard]);
    expect(await revokeIntent(1, "k", deps(dynamo, true))).toMatchObject({ verdict: "would_revoke", xp: 20 });
    expect(calls.map((c) => c.kind)).toEqual(["GetCommand"]);
  });

  it("a cancelled transaction is judged again from a fresh read; its own lost commit is recognised by its id", async () => {
    const revokedBy = (id: unknown) => ({
      ...guard,
      revokedAt: "2026-12-01T12:00:00.000Z",
      revokedReason: "bot",
      revocationId: id,
    });
    // The attempt's id is its token and its mark on the guard.
    const mine = table(
      [guard, (calls) => revokedBy(calls[1]?.input.ClientRequestToken)],
      [conditionFailed()],
    );
    expect(await revokeIntent(1, "k", deps(mine.dynamo))).toMatchObject({ verdict: "revoked", xp: 20 });
    expect(mine.calls.map((c) => c.kind)).toEqual(["GetCommand", "TransactWriteCommand", "GetCommand"]);
    const written = mine.calls[1]?.input as {
      TransactItems: Array<{ Update: { ExpressionAttributeValues: Record<string, unknown> } }>;
      ClientRequestToken: string;
    };
    expect(written.TransactItems[0]?.Update.ExpressionAttributeValues[":revocationId"]).toBe(
      written.ClientRequestToken,
    );
    // The same millisecond and reason, another run's id: someone else's revocation.
    const theirs = table([guard, revokedBy("another-run")], [conditionFailed()]);
    expect(await revokeIntent(1, "k", deps(theirs.dynamo))).toMatchObject({
      verdict: "already_revoked",
      xp: 20,
    });
  });

  it("gives up a guard that changes under every attempt, after 5 reads", async () => {
    const { dynamo, calls } = table([guard], Array.from({ length: 10 }, conditionFailed));
    expect(await revokeIntent(2, "k", deps(dynamo))).toEqual({
      line: 2,
      verdict: "failed",
      intentKey: "k",
      reason: "the guard changed under every one of 5 attempts; run again",
    });
    expect(calls.filter((c) => c.kind === "GetCommand")).toHaveLength(5);
  });

  it("transient errors past the retries, and a refused profile, fail the line with their cause", async () => {
    const throttled = table([named("ProvisionedThroughputExceededException")]);
    expect(await revokeIntent(3, "k", deps(throttled.dynamo))).toEqual({
      line: 3,
      verdict: "failed",
      intentKey: "k",
      reason:
        "ProvisionedThroughputExceededException: ProvisionedThroughputExceededException happened (after 3 attempts)",
    });
    const refused = table(
      [guard],
      [
        named("TransactionCanceledException", {
          CancellationReasons: [{ Code: "None" }, { Code: "ValidationError" }],
        }),
      ],
    );
    expect(await revokeIntent(3, "k", deps(refused.dynamo))).toEqual({
      line: 3,
      verdict: "failed",
      intentKey: "k",
      reason: "TransactionCanceledException [None, ValidationError]: TransactionCanceledException happened",
    });
    expect(refused.calls.filter((c) => c.kind === "TransactWriteCommand")).toHaveLength(1);
  });

  it("a stamp the profile refused (it changed at or after it): judged again, stamped after the profile's instant", async () => {
    const stampRefused = named("TransactionCanceledException", {
      CancellationReasons: [
        { Code: "None" },
        { Code: "ConditionalCheckFailed", Item: { updatedAt: { S: "2026-12-01T12:00:07.000Z" } } },
      ],
    });
    const { dynamo, calls } = table([guard], [stampRefused, "ok"]);
    expect(await revokeIntent(1, "k", deps(dynamo))).toMatchObject({
      verdict: "revoked",
      revokedAt: "2026-12-01T12:00:07.001Z",
    });
    // Never resent as it was: read again, then one transaction at the new stamp.
    expect(calls.map((c) => c.kind)).toEqual([
      "GetCommand",
      "TransactWriteCommand",
      "GetCommand",
      "TransactWriteCommand",
    ]);
    type Written = {
      TransactItems: Array<{ Update: { ExpressionAttributeValues: Record<string, unknown> } }>;
    };
    const stampOf = (call: Call | undefined) =>
      (call?.input as Written | undefined)?.TransactItems[1]?.Update.ExpressionAttributeValues[":now"];
    expect([stampOf(calls[1]), stampOf(calls[3])]).toEqual([
      "2026-12-01T12:00:00.000Z",
      "2026-12-01T12:00:07.001Z",
    ]);
  });

  it("what every line would meet stops the run: a missing table, an unreachable endpoint", async () => {
    const missing = named("ResourceNotFoundException");
    await expect(revokeIntent(1, "k", deps(table([missing]).dynamo))).rejects.toBe(missing);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    await expect(revokeIntent(1, "k", deps(table([refused]).dynamo))).rejects.toBe(refused);
  });
});

describe("revokeLines", () => {
  it("judges every non-empty line, in line order, invalid ones with their line number; the progress counts all", async () => {
    const { dynamo } = table([undefined]);
    const progress: Array<[number, number]> = [];
    const results = await revokeLines(
      ['{"intentKey":"a"}', "", "not json", '{"intentKey":"b"}'],
      deps(dynamo, true),
      { onProgress: (done, total) => progress.push([done, total]), concurrency: 1 },
    );
    expect(results.map((r) => [r.line, r.verdict])).toEqual([
      [1, "not_found"],
      [3, "invalid"],
      [4, "not_found"],
    ]);
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it("--rate spaces the revocations out", async () => {
    const { dynamo } = table([undefined]);
    const started = Date.now();
    await revokeLines(['{"intentKey":"a"}', '{"intentKey":"b"}', '{"intentKey":"c"}'], deps(dynamo, true), {
      rate: 20,
    });
    // Three starts at 20 a second: the third no sooner than 100 ms after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });
});

describe("the revocation's clock", () => {
  it("is the machine's corrected by the offset the SDK has seen to AWS's clock", () => {
    const before = Date.now();
    const ahead = awsClock({ config: { systemClockOffset: 3_600_000 } })();
    expect(ahead - before).toBeGreaterThanOrEqual(3_600_000);
    expect(ahead - before).toBeLessThan(3_600_000 + 1_000);
    const behind = awsClock({ config: { systemClockOffset: -5_000 } })();
    expect(Date.now() - behind).toBeGreaterThanOrEqual(4_900);
    // Within the Date header's whole second (and the answer's latency): rounding, not skew.
    for (const rounding of [undefined, -999, 1_500, -2_000]) {
      const plain = awsClock({ config: { systemClockOffset: rounding } })();
      expect(Math.abs(plain - Date.now())).toBeLessThan(50);
    }
    expect(Math.abs(awsClock({})() - Date.now())).toBeLessThan(50);
  });
});
