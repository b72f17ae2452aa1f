import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { isAwardCandidate } from "@rewards/announcer";
import { queueCounts } from "@rewards/cli";
import { streamBatchFailureSchema } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { completed, runCli, stackTest, waitFor } from "@rewards/testing";
import { describe, expect, onTestFinished } from "vitest";
import { award, everyRecord, ownTable, sourceFor } from "./fixtures/announcerFixtures";

// The history writer's given-up batches (docs/operations.md, "The history"): `rewards history
// --drain` says it gave them up (exit 1), `history failures` lists them, `history replay`
// writes them from the stream through the writer's own code.

const it = stackTest();

type Table = Awaited<ReturnType<typeof ownTable>>;

/** A user's history items, as [intent key, xp, revokedAt, revokedReason], oldest first. */
async function historyOf(table: Table, userId: string) {
  const answer = await createDynamoClient(table.env).send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
      ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":award": "AWARD#" },
    }),
  );
  return (answer.Items ?? []).map((item) => [item.intentKey, item.xp, item.revokedAt, item.revokedReason]);
}

/** A fault proxy before the table that throttles every PutItem (the history writer's one call). */
async function throttledPuts(stack: { endpoints: { dynamodb: string } }) {
  const proxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: [{ operation: "PutItem", fault: "throttle", probability: 1 }],
    seed: 1,
  });
  onTestFinished(() => proxy.stop());
  return proxy;
}

/** The writer reaches the table through `endpoint`; the stream is read directly. */
const writerThrough = (table: Table, endpoint: string) => ({
  ...table.env,
  AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  AWS_ENDPOINT_URL_DYNAMODB_STREAMS: table.env.AWS_ENDPOINT_URL_DYNAMODB as string,
});

async function checkpointFile() {
  const dir = await mkdtemp(join(tmpdir(), "rewards-history-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "checkpoint.json");
}

describe("the history writer's given-up batches", () => {
  it("history --drain under throttling gives the batch up (exit 1); failures lists it; a replay whose delete fails keeps it; a replay writes it whole", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `hf-${randomUUID().slice(0, 6)}`;
    // Two transactions: the profile's record lies between the two guards in the stream.
    await award(table.env, [completed(user, "a")]);
    await award(table.env, [completed(user, "b")]);
    const proxy = await throttledPuts(stack);

    // The deployed mapping's settings (10 retries, bisect), every PutItem throttled.
    const run = await runCli(["history", "--drain", "--json"], writerThrough(table, proxy.endpoint));
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ written: 0, invocations: 11, retries: 11, givenUp: 1 });
    expect(run.stderr).toContain(
      "rewards: gave up 1 batch: its place in the stream is in HISTORY_FAILURE_QUEUE_URL; `rewards history failures` lists it, `rewards history replay` replays it from the stream",
    );
    expect(proxy.counts().throttle).toBeGreaterThan(0);
    await proxy.stop();
    expect(await historyOf(table, user)).toEqual([]);

    const guards = (await everyRecord(table.env, table.streamArn)).filter(
      (r) => r.dynamodb?.Keys?.sk?.S === "IDEM",
    );
    const listed = await runCli(["history", "failures", "--json"], table.env);
    expect(listed.code, listed.stderr).toBe(0);
    const [failure] = JSON.parse(listed.stdout);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    expect(streamBatchFailureSchema.parse(failure)).toMatchObject({
      requestContext: { condition: "RetryAttemptsExhausted", approximateInvokeCount: 11 },
      DDBStreamBatchInfo: {
        streamArn: table.streamArn,
        // The two guards the writer was handed, not the profile's record between them.
        startSequenceNumber: guards[0]?.dynamodb?.SequenceNumber,
        endSequenceNumber: guards[1]?.dynamodb?.SequenceNumber,
        batchSize: 2,
      },
    });
    const dry = await runCli(["history", "replay", "--dry-run", "--json"], table.env);
    expect(JSON.parse(dry.stdout)).toEqual({
      batches: 1,
      written: 0,
      kept: 0,
      results: [
        {
          messageId: expect.any(String),
          from: guards[0]?.dynamodb?.SequenceNumber,
          to: guards[1]?.dynamodb?.SequenceNumber,
          awards: 2,
          written: 0,
          outcome: "would write",
        },
      ],
    });
    expect(dry.code).toBe(0);

    // The items are written, but the record's delete fails: it stays, and says so.
    const sqsProxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation: "DeleteMessage", fault: "http500", probability: 1 }],
      seed: 1,
    });
    const undeleted = await runCli(["history", "replay", "--json"], {
      ...table.env,
      AWS_ENDPOINT_URL_SQS: sqsProxy.endpoint,
    });
    await sqsProxy.stop();
    expect(undeleted.code).toBe(1);
    expect(JSON.parse(undeleted.stdout)).toMatchObject({
      batches: 1,
      written: 2,
      kept: 1,
      results: [{ awards: 2, written: 2, outcome: "failed" }],
    });
    expect(JSON.parse(undeleted.stdout).results[0].reason).toMatch(
      /^done, but the failure record was not deleted \(a later replay does the same again, harmlessly\)/,
    );
    expect(await queueCounts(createSqsClient(table.env), table.historyFailureQueueUrl)).toMatchObject({
      visible: 1,
    });

    // Again, with nothing in the way: written (the same items), the record deleted.
    const replay = await runCli(["history", "replay"], table.env);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toContain("2 awards written from 1 batch; 0 batches kept");
    expect(await historyOf(table, user)).toEqual([
      [`${user}#a#article.completed`, 20, undefined, undefined],
      [`${user}#b#article.completed`, 20, undefined, undefined],
    ]);
    expect((await runCli(["history", "failures"], table.env)).stdout).toBe(
      "no given-up batches: every award the writer was handed is in the history\n",
    );
    const sqs = createSqsClient(table.env);
    expect(await queueCounts(sqs, table.historyFailureQueueUrl)).toMatchObject({ visible: 0, inFlight: 0 });
  });

  it("a given-up revocation is listed and replayed: the award's history item shows it revoked", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `hr-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    await award(table.env, [completed(user, "b")]);
    const checkpoint = await checkpointFile();
    const first = await runCli(["history", "--drain", "--checkpoint", checkpoint, "--json"], table.env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ written: 2, givenUp: 0 });

    const revoke = await runCli(
      ["revoke", "-", "--reason", "bot traffic", "--yes"],
      table.env,
      `${JSON.stringify({ intentKey: `${user}#a#article.completed` })}\n`,
    );
    expect(revoke.code).toBe(0);
    const proxy = await throttledPuts(stack);
    const second = await runCli(
      ["history", "--drain", "--checkpoint", checkpoint, "--max-retries", "1", "--json"],
      writerThrough(table, proxy.endpoint),
    );
    await proxy.stop();
    expect(second.code, second.stderr).toBe(1);
    expect(JSON.parse(second.stdout)).toMatchObject({ written: 0, invocations: 2, givenUp: 1 });
    // Given up: the revocation is not in the history yet.
    expect(await historyOf(table, user)).toEqual([
      [`${user}#a#article.completed`, 20, undefined, undefined],
      [`${user}#b#article.completed`, 20, undefined, undefined],
    ]);

    const revocation = (await everyRecord(table.env, table.streamArn)).filter(
      (r) => r.eventName === "MODIFY" && r.dynamodb?.Keys?.sk?.S === "IDEM",
    );
    expect(revocation).toHaveLength(1);
    const listed = JSON.parse((await runCli(["history", "failures", "--json"], table.env)).stdout);
    expect(listed.map((f: { DDBStreamBatchInfo: unknown }) => f.DDBStreamBatchInfo)).toEqual([
      expect.objectContaining({
        startSequenceNumber: revocation[0]?.dynamodb?.SequenceNumber,
        endSequenceNumber: revocation[0]?.dynamodb?.SequenceNumber,
        batchSize: 1,
      }),
    ]);

    const replay = await runCli(["history", "replay", "--json"], table.env);
    expect(replay.code, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({
      batches: 1,
      written: 1,
      kept: 0,
      results: [{ awards: 1, written: 1, outcome: "written" }],
    });
    const items = await historyOf(table, user);
    expect(items).toEqual([
      [`${user}#a#article.completed`, 20, expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), "bot traffic"],
      [`${user}#b#article.completed`, 20, undefined, undefined],
    ]);
  });

  it("a batch given up for its age, filtered records between its guards, replays whole through both replays", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `ha-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a")]);
    await award(table.env, [completed(user, "b")]);
    const sqs = createSqsClient(table.env);
    // The record age give-up, as tests/announcer.test.ts drives it: the source's clock two
    // hours ahead; its failure record to both functions' queues (the same filter, so the same range).
    const { source, failures, invocations } = await sourceFor(table, async () => {}, {
      filter: isAwardCandidate,
      maximumRecordAgeSeconds: 3600,
      clock: () => Date.now() + 2 * 3600_000,
      onFailure: async (failure) => {
        failures.push(failure);
        for (const queueUrl of [table.historyFailureQueueUrl, table.announcerFailureQueueUrl])
          await sqs.send(
            new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(failure) }),
          );
      },
    });
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    await source.stop();
    expect(invocations).toEqual([]);
    const failure = streamBatchFailureSchema.parse(failures[0]);
    expect(failure.requestContext.condition).toBe("RecordAgeExceeded");
    const records = await everyRecord(table.env, table.streamArn);
    const inRange = records.filter(
      (r) =>
        BigInt(r.dynamodb?.SequenceNumber ?? 0) >= BigInt(failure.DDBStreamBatchInfo.startSequenceNumber) &&
        BigInt(r.dynamodb?.SequenceNumber ?? 0) <= BigInt(failure.DDBStreamBatchInfo.endSequenceNumber),
    );
    // Its range holds the first profile record too; its batchSize counts the two guards.
    expect(inRange.map((r) => r.dynamodb?.Keys?.sk?.S)).toEqual(["IDEM", "PROFILE", "IDEM"]);
    expect(failure.DDBStreamBatchInfo.batchSize).toBe(2);

    const history = await runCli(["history", "replay"], table.env);
    expect(history.stdout + history.stderr).toContain("2 awards written from 1 batch; 0 batches kept");
    expect(history.code).toBe(0);
    expect((await historyOf(table, user)).map(([intentKey, xp]) => [intentKey, xp])).toEqual([
      [`${user}#a#article.completed`, 20],
      [`${user}#b#article.completed`, 20],
    ]);
    const grants = await runCli(["grants", "replay"], table.env);
    expect(grants.stdout + grants.stderr).toContain("2 awards published from 1 batch; 0 batches kept");
    expect(grants.code).toBe(0);
    for (const queueUrl of [table.historyFailureQueueUrl, table.announcerFailureQueueUrl])
      expect(await queueCounts(sqs, queueUrl)).toMatchObject({ visible: 0, inFlight: 0 });
  });

  it("rewards announcer --drain exits 1 when it gave a batch up, and names the commands that replay it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award(table.env, [completed(`an-${randomUUID().slice(0, 6)}`, "a")]);
    const run = await runCli(["announcer", "--drain", "--max-retries", "0", "--json"], {
      ...table.env,
      BUS_NAME: "no-such-bus",
    });
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ announced: 0, givenUp: 1 });
    expect(run.stderr).toContain(
      "rewards: gave up 1 batch: its place in the stream is in ANNOUNCER_FAILURE_QUEUE_URL; `rewards grants failures` lists it, `rewards grants replay` replays it from the stream",
    );
    expect(JSON.parse((await runCli(["grants", "failures", "--json"], table.env)).stdout)).toHaveLength(1);
  });
});

describe("history failures and replay part-way", () => {
  it.for([
    ["failures", "ChangeMessageVisibilityBatch", 0],
    ["failures", "ReceiveMessage", 1],
    ["replay", "ChangeMessageVisibilityBatch", 0],
    ["replay", "ReceiveMessage", 1],
  ] as const)(
    "history %s with %s failing keeps every record",
    async ([command, operation, skip], { stack }) => {
      const table = await ownTable(stack);
      const sqs = createSqsClient(table.env);
      for (let i = 0; i < 12; i++)
        await sqs.send(
          new SendMessageCommand({ QueueUrl: table.historyFailureQueueUrl, MessageBody: `not json ${i}` }),
        );
      const proxy = await startFaultProxy({
        target: stack.endpoints.sqs,
        rules: [{ operation, fault: "http500", probability: 1, skip }],
        seed: 1,
      });
      const run = await runCli(["history", command, "--max", "20", "--json"], {
        ...table.env,
        AWS_ENDPOINT_URL_SQS: proxy.endpoint,
      });
      await proxy.stop();
      expect(run.code).toBe(1);
      const { visible, inFlight } = await queueCounts(sqs, table.historyFailureQueueUrl);
      expect(visible + inFlight).toBe(12);
      if (operation === "ChangeMessageVisibilityBatch") {
        expect(run.stderr).toContain("not released");
        const shown = JSON.parse(run.stdout);
        expect(command === "failures" ? shown : shown.results).toHaveLength(12);
      } else expect(visible).toBe(12);
    },
  );
});
