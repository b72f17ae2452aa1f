import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isAnnouncerCandidate } from "@rewards/announcer";
import { grantId, profileKey, streamBatchFailureSchema } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { fileCheckpoints, memoryCheckpoints } from "@rewards/local";
import { completed, stackTest, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";

import {
  announced,
  award,
  credentials,
  everyRecord,
  grantsIn,
  ownTable,
  sourceFor,
} from "./fixtures/announcerFixtures";

const it = stackTest();
describe("the table's stream on the embedded DynamoDB", () => {
  it("holds one INSERT per item an award creates, and nothing of a cancelled transaction", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `s-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    const afterAward = await everyRecord(table.env, table.streamArn);
    expect(afterAward.map((r) => [r.eventName, r.dynamodb?.Keys?.pk?.S])).toEqual([
      ["INSERT", `IDEM#${user}#a#article.completed`],
      ["INSERT", `USER#${user}`],
    ]);
    expect(afterAward.map((r) => r.dynamodb?.StreamViewType)).toEqual(["NEW_IMAGE", "NEW_IMAGE"]);
    // Sequence numbers are consecutive, in commit order.
    expect(
      BigInt(afterAward[1]?.dynamodb?.SequenceNumber ?? 0) -
        BigInt(afterAward[0]?.dynamodb?.SequenceNumber ?? 0),
    ).toBe(1n);

    // A duplicate: the guard's condition fails, the transaction is cancelled.
    await award(table.env, [completed(user, "a")]);
    // A profile whose xp is not a number: the guard is written, then the whole transaction undone.
    const broken = `b-${randomUUID().slice(0, 6)}`;
    await createDynamoClient(table.env).send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: profileKey(broken),
        UpdateExpression: "SET xp = :text, awards = :zero",
        ExpressionAttributeValues: { ":text": "lots", ":zero": 0 },
      }),
    );
    expect((await award(table.env, [completed(broken, "a")])).batchItemFailures).toEqual([]);
    const records = await everyRecord(table.env, table.streamArn);
    expect(records.map((r) => [r.eventName, r.dynamodb?.Keys?.pk?.S])).toEqual([
      ["INSERT", `IDEM#${user}#a#article.completed`],
      ["INSERT", `USER#${user}`],
      // The corrupt profile written by hand; then nothing of the rejected award.
      ["INSERT", `USER#${broken}`],
    ]);
  });
});

describe("the announcer on the local stream source and bus", () => {
  it("announces each paid award once, by its guard's id, and nothing for duplicates or poison", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `e-${randomUUID().slice(0, 6)}`;
    await award(table.env, [
      completed(user, "a"),
      completed(user, "a"),
      completed(user, "b"),
      "{poison",
      completed(`${user}-2`, "a"),
    ]);
    const { source, invocations } = await sourceFor(table, announced(table.env), {
      filter: isAnnouncerCandidate,
    });
    const since = Date.now();
    expect(await waitFor(() => source.caughtUp(since))).toBe(true);
    await source.stop();
    // The filter: only the three guard INSERTs reached the function, in one invocation (the
    // two users' awards commit in either order).
    expect(invocations.map((i) => [...i.keys].sort())).toEqual([
      [
        `IDEM#${user}#a#article.completed`,
        `IDEM#${user}#b#article.completed`,
        `IDEM#${user}-2#a#article.completed`,
      ],
    ]);
    const grants = (await grantsIn(table.env, table.grantsQueueUrl)).sort((a, b) =>
      a.data.intentKey < b.data.intentKey ? -1 : 1,
    );
    expect(grants.map((g) => [g.subject, g.data.intentKey, g.data.xp])).toEqual([
      [user, `${user}#a#article.completed`, 20],
      [user, `${user}#b#article.completed`, 20],
      [`${user}-2`, `${user}-2#a#article.completed`, 20],
    ]);
    for (const grant of grants) expect(grant.id).toBe(grantId(grant.data.intentKey, grant.data.awardedAt));
    expect(grants[0]?.time).toBe(grants[0]?.data.awardedAt);
  });

  it("retries a batch from the lowest sequence number reported, and checkpoints what came before", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `p-${randomUUID().slice(0, 6)}`;
    await award(
      table.env,
      ["a", "b", "c", "d"].map((article) => completed(user, article)),
    );
    let calls = 0;
    const { source, invocations } = await sourceFor(
      table,
      async (event) => {
        calls++;
        // First call: the third and fourth guards failed (reported out of order).
        const failed = calls === 1 ? [event.Records[3], event.Records[2]] : [];
        return {
          batchItemFailures: failed.map((r) => ({ itemIdentifier: r?.dynamodb?.SequenceNumber ?? "" })),
        };
      },
      { filter: isAnnouncerCandidate },
    );
    const since = Date.now();
    expect(await waitFor(() => source.caughtUp(since))).toBe(true);
    await source.stop();
    expect(invocations).toHaveLength(2);
    expect(invocations[1]?.sequenceNumbers).toEqual(invocations[0]?.sequenceNumbers.slice(2));
  });

  it("bisects a batch whose invocation fails, and gives up only the record that keeps failing", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `x-${randomUUID().slice(0, 6)}`;
    // One batch each: four transactions, so each guard's record is followed by its profile's.
    for (const article of ["a", "b", "c", "d"]) await award(table.env, [completed(user, article)]);
    const poisoned = `IDEM#${user}#c#article.completed`;
    const { source, invocations, failures } = await sourceFor(
      table,
      async (event) => {
        if (event.Records.some((r) => r.dynamodb?.Keys?.pk?.S === poisoned)) throw new Error("boom");
      },
      { filter: isAnnouncerCandidate, bisectBatchOnFunctionError: true, maximumRetryAttempts: 1 },
    );
    const since = Date.now();
    expect(await waitFor(() => source.caughtUp(since) && failures.length === 1)).toBe(true);
    await source.stop();
    const letter = (keys: string[]) => keys.map((k) => k.split("#")[2]).join("");
    // abcd fails → ab ok, cd fails → c fails (retried once), d ok.
    expect(invocations.map((i) => letter(i.keys))).toEqual(["abcd", "ab", "cd", "c", "c", "d"]);
    const failure = streamBatchFailureSchema.parse(failures[0]);
    expect(failure.requestContext).toMatchObject({
      condition: "RetryAttemptsExhausted",
      approximateInvokeCount: 2,
    });
    expect(failure.responseContext).toMatchObject({ functionError: "Unhandled" });
    const all = await everyRecord(table.env, table.streamArn);
    const poisonSeq = all.find((r) => r.dynamodb?.Keys?.pk?.S === poisoned)?.dynamodb?.SequenceNumber;
    // The given-up batch is what the function was handed: the failing guard alone (its
    // profile's record, in the same half, is filtered out: not in the range, not counted).
    expect(failure.DDBStreamBatchInfo).toMatchObject({
      shardId: expect.stringMatching(/^shardId-/),
      startSequenceNumber: poisonSeq,
      endSequenceNumber: poisonSeq,
      batchSize: 1,
      streamArn: table.streamArn,
    });
  });

  it("gives up a batch after its retries (partial failures too) and moves on to the next", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `r-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    const { source, failures, invocations } = await sourceFor(
      table,
      async (event) => ({
        batchItemFailures: [{ itemIdentifier: event.Records[0]?.dynamodb?.SequenceNumber ?? "" }],
      }),
      { filter: isAnnouncerCandidate, maximumRetryAttempts: 2 },
    );
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    expect(invocations).toHaveLength(3);
    // The shard moved on: a later award is delivered.
    await award(table.env, [completed(user, "b")]);
    expect(await waitFor(() => invocations.length === 6)).toBe(true);
    await source.stop();
    expect(streamBatchFailureSchema.parse(failures[0]).requestContext).toMatchObject({
      condition: "RetryAttemptsExhausted",
      approximateInvokeCount: 3,
    });
    expect(streamBatchFailureSchema.parse(failures[0]).responseContext?.functionError).toBeUndefined();
  });

  it("gives up records older than the maximum age without invoking the function", async ({ stack }) => {
    const table = await ownTable(stack);
    const user = `g-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    const { source, failures, invocations } = await sourceFor(table, async () => {}, {
      filter: isAnnouncerCandidate,
      maximumRecordAgeSeconds: 3600,
      clock: () => Date.now() + 2 * 3600_000,
    });
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    const since = Date.now();
    expect(await waitFor(() => source.caughtUp(since))).toBe(true);
    await source.stop();
    expect(invocations).toEqual([]);
    const failure = streamBatchFailureSchema.parse(failures[0]);
    expect(failure.requestContext).toMatchObject({
      condition: "RecordAgeExceeded",
      approximateInvokeCount: 0,
    });
    // The guard only: the profile's record is filtered out, so it is simply done.
    expect(failure.DDBStreamBatchInfo.batchSize).toBe(1);
  });

  it("resumes from a checkpoint file, delivering nothing twice", async ({ stack }) => {
    const table = await ownTable(stack);
    const user = `c-${randomUUID().slice(0, 6)}`;
    const dir = await mkdtemp(join(tmpdir(), "rewards-checkpoint-"));
    const path = join(dir, "checkpoint.json");
    try {
      await award(table.env, [completed(user, "a")]);
      const first = await sourceFor(table, async () => {}, {
        checkpoints: await fileCheckpoints(path, table.streamArn),
      });
      let since = Date.now();
      expect(await waitFor(() => first.source.caughtUp(since))).toBe(true);
      await first.source.stop();
      const saved = JSON.parse(await readFile(path, "utf8"));
      expect(saved.streamArn).toBe(table.streamArn);
      expect(Object.values(saved.shards)).toEqual([first.invocations[0]?.sequenceNumbers.at(-1)]);

      await award(table.env, [completed(user, "b")]);
      const second = await sourceFor(table, async () => {}, {
        checkpoints: await fileCheckpoints(path, table.streamArn),
      });
      since = Date.now();
      expect(await waitFor(() => second.source.caughtUp(since))).toBe(true);
      await second.source.stop();
      expect(second.invocations.map((i) => i.keys)).toEqual([
        [`IDEM#${user}#b#article.completed`, `USER#${user}`],
      ]);
      // A checkpoint of another stream (a restarted stack) is not this one's.
      expect(await (await fileCheckpoints(path, "arn:other")).get("any")).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("starts at LATEST when asked, and refuses settings Lambda would refuse", async ({ stack }) => {
    const table = await ownTable(stack);
    const user = `l-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    const { source, invocations } = await sourceFor(table, async () => {}, {
      startingPosition: "LATEST",
      checkpoints: memoryCheckpoints(),
    });
    // Wait until the shard has been read once, so the later write is after its position.
    expect(await waitFor(() => source.caughtUp(0))).toBe(true);
    await award(table.env, [completed(user, "b")]);
    expect(await waitFor(() => invocations.length === 1)).toBe(true);
    await source.stop();
    expect(invocations[0]?.keys).toEqual([`IDEM#${user}#b#article.completed`, `USER#${user}`]);
    for (const bad of [{ batchSize: 0 }, { maximumRetryAttempts: -2 }, { maximumRecordAgeSeconds: 59 }])
      await expect(sourceFor(table, async () => {}, bad)).rejects.toThrow(/invalid stream source options/);
  });
});

describe("the local bus", () => {
  it("answers PutEvents as EventBridge does, through the SDK", async ({ stack }) => {
    const client = new EventBridgeClient({
      region: "us-east-1",
      endpoint: stack.endpoints.eventbridge,
      credentials,
    });
    const entry = (detail: string, bus = stack.env.BUS_NAME) => ({
      EventBusName: bus,
      Source: "test",
      DetailType: "probe",
      Detail: detail,
    });
    const answer = await client.send(
      new PutEventsCommand({ Entries: [entry('{"a":1}'), entry("[1]"), entry("nope")] }),
    );
    expect(answer.FailedEntryCount).toBe(2);
    expect(answer.Entries?.map((e) => e.ErrorCode ?? "ok")).toEqual([
      "ok",
      "MalformedDetail",
      "MalformedDetail",
    ]);
    await expect(
      client.send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => entry("{}")) })),
    ).rejects.toMatchObject({ name: "ValidationException" });
    await expect(
      client.send(new PutEventsCommand({ Entries: [entry("{}", "other-bus")] })),
    ).rejects.toMatchObject({
      name: "ResourceNotFoundException",
      message: "Event bus other-bus does not exist.",
    });
    // The ARN names the bus too.
    const byArn = await client.send(new PutEventsCommand({ Entries: [entry("{}", stack.resources.busArn)] }));
    expect(byArn.FailedEntryCount).toBe(0);
  });
});
