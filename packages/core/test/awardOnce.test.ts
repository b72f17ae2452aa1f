import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { AwardError, awardOnce } from "../src/aws";
import type { Award } from "../src/domain";

/**
 * The guard transaction's client, answering each attempt as a test says: fates the local
 * DynamoDB cannot be made to give on demand (a reset after commit without a token, a guard
 * returned or not). The integration tests (tests/worker.test.ts) cover the same paths over HTTP.
 */
function clientAnswering(...answers: Array<Error | "ok">) {
  const sent: unknown[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      sent.push(command.input);
      const answer = answers[sent.length - 1] ?? "ok";
      if (answer !== "ok") throw answer;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, sent };
}

const NOW = Date.parse("2026-12-01T12:00:00.000Z");
const award: Award & { messageId?: string } = {
  intentKey: "u#a#article.completed",
  userId: "u",
  type: "article.completed",
  amount: 20,
  eventId: "evt-1",
  data: { articleSlug: "a" },
  guardTtlSeconds: 90 * 86_400,
  messageId: "m-1",
};
const named = (name: string, extra: object = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });
const duplicate = (item?: Record<string, unknown>) =>
  named("TransactionCanceledException", {
    CancellationReasons: [
      { Code: "ConditionalCheckFailed", ...(item ? { Item: item } : {}) },
      { Code: "None" },
    ],
  });
const deps = (client: DynamoDBDocumentClient) => ({
  client,
  tableName: "t",
  clock: () => NOW,
  retry: { sleep: async () => {}, random: () => 0 },
});

describe("awardOnce", () => {
  it("a committed transaction is awarded, with no note", async () => {
    const { client, sent } = clientAnswering("ok");
    expect(await awardOnce(deps(client), award)).toEqual({ outcome: "awarded", attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it("a retry after throttling (an answer: nothing written) is a plain award", async () => {
    const { client } = clientAnswering(named("ThrottlingException"), "ok");
    expect(await awardOnce(deps(client), award)).toEqual({ outcome: "awarded", attempts: 2 });
  });

  it("a retry after a reset (no answer) says the token made it safe", async () => {
    const { client, sent } = clientAnswering(named("Error", { code: "ECONNRESET" }), "ok");
    expect(await awardOnce(deps(client), award)).toEqual({
      outcome: "awarded",
      attempts: 2,
      note: "an earlier attempt's answer was lost; its token made the retry safe",
    });
    expect(sent[1]).toEqual(sent[0]);
  });

  it("retries that run out are an AwardError saying what and how often", async () => {
    const { client } = clientAnswering(...Array.from({ length: 4 }, () => named("ThrottlingException")));
    const failure = awardOnce(deps(client), award);
    await expect(failure).rejects.toBeInstanceOf(AwardError);
    await expect(failure).rejects.toMatchObject({
      name: "AwardError",
      kind: "transient",
      attempts: 4,
      mayHaveCommitted: false,
      message: "transient after 4 attempt(s): ThrottlingException: ThrottlingException happened",
    });
  });

  it("a configuration error is not retried", async () => {
    const { client, sent } = clientAnswering(named("ResourceNotFoundException"));
    await expect(awardOnce(deps(client), award)).rejects.toMatchObject({
      kind: "configuration",
      attempts: 1,
    });
    expect(sent).toHaveLength(1);
  });

  it("a duplicate whose guard was not returned (an endpoint ignoring ALL_OLD) is a plain duplicate", async () => {
    const { client } = clientAnswering(duplicate());
    expect(await awardOnce(deps(client), award)).toEqual({ outcome: "duplicate", attempts: 1 });
  });

  it("the guard this very attempt wrote (same message, same instant) means the award is ours", async () => {
    const { client } = clientAnswering(
      duplicate({ messageId: { S: "m-1" }, awardedAt: { S: new Date(NOW).toISOString() } }),
    );
    expect(await awardOnce(deps(client), award)).toEqual({
      outcome: "awarded",
      attempts: 1,
      note: "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's",
    });
  });

  it("the guard an earlier delivery of this message wrote is a duplicate that says so", async () => {
    const { client } = clientAnswering(
      duplicate({ messageId: { S: "m-1" }, awardedAt: { S: "2026-12-01T11:00:00.000Z" } }),
    );
    expect(await awardOnce(deps(client), award)).toEqual({
      outcome: "duplicate",
      attempts: 1,
      note: "already paid by an earlier delivery of this same message (at 2026-12-01T11:00:00.000Z) whose result was lost",
    });
  });

  it("without a message id nothing is ours: a guard of this instant is still a duplicate", async () => {
    const { client } = clientAnswering(duplicate({ awardedAt: { S: new Date(NOW).toISOString() } }));
    const { messageId: _omitted, ...withoutMessage } = award;
    expect(await awardOnce(deps(client), withoutMessage)).toEqual({ outcome: "duplicate", attempts: 1 });
  });
});
