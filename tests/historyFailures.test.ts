import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ChangeMessageVisibilityCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { streamBatchFailureSchema } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { createHistoryDeps, isHistoryCandidate } from "@rewards/history";
import { startFaultProxy } from "@rewards/local";
import { historyReplayTarget, queueCounts, replayStreamFailures } from "@rewards/ops";
import { completed, profileOf, runCli, stackTest, startCli, waitFor } from "@rewards/testing";
import { describe, expect, onTestFinished } from "vitest";
import {
  award,
  everyRecord,
  goneFailureRecord,
  ownTable,
  sourceFor,
  streamsOf,
} from "./fixtures/announcerFixtures";

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

/**
 * Two awards in two transactions (a profile record between their guards in the stream), and a
 * real failure record for them: the record age give-up, as tests/announcer.test.ts drives it
 * (the source's clock two hours ahead), before anything is delivered. Sent nowhere: the test
 * sends it; `inRange` is every record of its range, as the stream holds them.
 */
async function twoAwardsGivenUp(stack: Parameters<typeof ownTable>[0], prefix: string) {
  const table = await ownTable(stack);
  const user = `${prefix}-${randomUUID().slice(0, 6)}`;
  await award(table.env, [completed(user, "a")]);
  await award(table.env, [completed(user, "b")]);
  const { source, failures } = await sourceFor(table, async () => {}, {
    filter: isHistoryCandidate,
    maximumRecordAgeSeconds: 3600,
    clock: () => Date.now() + 2 * 3600_000,
  });
  expect(await waitFor(() => failures.length === 1)).toBe(true);
  await source.stop();
  const failure = streamBatchFailureSchema.parse(failures[0]);
  const { startSequenceNumber: start, endSequenceNumber: end } = failure.DDBStreamBatchInfo;
  const inRange = (await everyRecord(table.env, table.streamArn)).filter(({ dynamodb }) => {
    const sequence = BigInt(dynamodb?.SequenceNumber ?? 0);
    return sequence >= BigInt(start) && sequence <= BigInt(end);
  });
  return { table, user, failure, inRange };
}

/** The bodies a queue holds, each received once and made visible again. */
async function bodiesIn(table: Table, queueUrl: string): Promise<string[]> {
  const sqs = createSqsClient(table.env);
  const held: Message[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) break;
    held.push(...Messages);
  }
  for (const message of held)
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: message.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    );
  return held.map((m) => m.Body ?? "").sort();
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

  it("a reader it cannot derive (a corrupt profile) is never skipped: given up, listed, and replayed once the profile is mended", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `cp-${randomUUID().slice(0, 6)}`;
    // Five articles, one at a time (100 XP: level-2 is due), then the profile corrupted before the
    // writer reads it (the worker refuses a corrupt profile: nothing is paid after it).
    for (const slug of ["a", "b", "c", "d", "e"]) await award(table.env, [completed(user, slug)]);
    const paid = await profileOf(createDynamoClient(table.env), table.tableName, user);
    expect(paid).toMatchObject({ xp: 100, awards: 5 });
    const corrupt = await runCli(["user", user, "--corrupt-xp", "eighty", "--yes"], table.env);
    expect(corrupt.code, corrupt.stderr).toBe(0);

    const run = await runCli(["history", "--drain", "--json"], table.env);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ givenUp: 1 });
    expect(run.stderr).toContain(
      // The writer's warn line (JSON): the reason names the profile, the attribute and what it holds.
      `the profile USER#${user} is unreadable: xp is \\"eighty\\" (Invalid input: expected number, received string)`,
    );
    const listed = await runCli(["history", "failures", "--json"], table.env);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);

    // Mended (the XP the five awards paid: `rewards history rebuild` would say the same), then replayed: the achievement it held back is earned.
    const mended = await runCli(["user", user, "--set-xp", "100", "--yes"], table.env);
    expect(mended.code, mended.stderr).toBe(0);
    const replay = await runCli(["history", "replay"], table.env);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    const achievements = await createDynamoClient(table.env).send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :a)",
        ExpressionAttributeValues: { ":pk": `USER#${user}`, ":a": "ACHIEVEMENT#" },
        ConsistentRead: true,
      }),
    );
    expect((achievements.Items ?? []).map((item) => item.achievement).sort()).toEqual([
      "first-article",
      "level-2",
    ]);
    expect((await runCli(["history", "failures"], table.env)).stdout).toBe(
      "no given-up batches: every award the writer was handed is in the history\n",
    );
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
    // hours ahead; its failure record to both functions' queues (guard writes only here, which
    // both functions' filters deliver: the same range).
    const { source, failures, invocations } = await sourceFor(table, async () => {}, {
      filter: isHistoryCandidate,
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

describe("a failure record's batchSize, read either way", () => {
  it("a record whose batchSize counts every record of its range, the filtered one too, replays whole through both replays and is deleted", async ({
    stack,
  }) => {
    const { table, user, failure, inRange } = await twoAwardsGivenUp(stack, "hc");
    expect(inRange.map((r) => r.dynamodb?.Keys?.sk?.S)).toEqual(["IDEM", "PROFILE", "IDEM"]);
    // The other reading of AWS's record: every record of the range counted, the profile's too.
    const everyRecordCounted = {
      ...failure,
      DDBStreamBatchInfo: { ...failure.DDBStreamBatchInfo, batchSize: 3 },
    };
    const sqs = createSqsClient(table.env);
    for (const queueUrl of [table.historyFailureQueueUrl, table.announcerFailureQueueUrl])
      await sqs.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(everyRecordCounted) }),
      );

    const history = await runCli(["history", "replay", "--json"], table.env);
    expect(history.code, history.stdout + history.stderr).toBe(0);
    expect(JSON.parse(history.stdout)).toEqual({
      batches: 1,
      written: 2,
      kept: 0,
      results: [
        {
          messageId: expect.any(String),
          from: failure.DDBStreamBatchInfo.startSequenceNumber,
          to: failure.DDBStreamBatchInfo.endSequenceNumber,
          awards: 2,
          written: 2,
          outcome: "written",
        },
      ],
    });
    expect(await historyOf(table, user)).toEqual([
      [`${user}#a#article.completed`, 20, undefined, undefined],
      [`${user}#b#article.completed`, 20, undefined, undefined],
    ]);
    const grants = await runCli(["grants", "replay", "--json"], table.env);
    expect(grants.code, grants.stderr).toBe(0);
    expect(JSON.parse(grants.stdout)).toMatchObject({
      batches: 1,
      published: 2,
      kept: 0,
      results: [{ awards: 2, published: 2, outcome: "republished" }],
    });
    // Both records deleted.
    expect(await bodiesIn(table, table.historyFailureQueueUrl)).toEqual([]);
    expect(await bodiesIn(table, table.announcerFailureQueueUrl)).toEqual([]);
  });
});

describe("history replay --discard-unreplayable", () => {
  it("prints each record no replay can do in full, then deletes it; never one kept for another reason; a delete failing part-way deletes nothing unprinted", async ({
    stack,
  }) => {
    const { table, failure, inRange } = await twoAwardsGivenUp(stack, "hd");
    expect(inRange).toHaveLength(3);
    // Kept for another reason: its batchSize is neither count of its range (2 handed, 3 read).
    const incomplete = JSON.stringify({
      ...failure,
      DDBStreamBatchInfo: { ...failure.DDBStreamBatchInfo, batchSize: 7 },
    });
    const unreplayable = [
      JSON.stringify(goneFailureRecord(table, "100")),
      JSON.stringify(goneFailureRecord(table, "200")),
      "not json: {",
    ];
    const sqs = createSqsClient(table.env);
    for (const body of [incomplete, ...unreplayable])
      await sqs.send(new SendMessageCommand({ QueueUrl: table.historyFailureQueueUrl, MessageBody: body }));
    const all = [incomplete, ...unreplayable].sort();
    /** The JSON lines before the report, and the report. */
    const linesOf = (stdout: string) => {
      const lines = stdout.split("\n");
      const report = lines.indexOf("{");
      return {
        printed: lines.slice(0, report).map((line) => JSON.parse(line)),
        report: JSON.parse(lines.slice(report).join("\n")),
      };
    };

    // A dry run prints them all in full and deletes nothing.
    const dry = await runCli(
      ["history", "replay", "--discard-unreplayable", "--dry-run", "--json"],
      table.env,
    );
    expect(dry.code).toBe(1); // the incomplete record: a replay refuses it
    const dryRun = linesOf(dry.stdout);
    expect(dryRun.printed.map((line) => line.wouldDiscard.body).sort()).toEqual([...unreplayable].sort());
    expect(dryRun.report).toMatchObject({ batches: 4, written: 0, kept: 1, wouldDiscard: 3 });
    expect(
      dryRun.report.results
        .map((r: { outcome: string; was?: string }) => `${r.outcome} ${r.was ?? ""}`)
        .sort(),
    ).toEqual(["incomplete ", "would discard gone", "would discard gone", "would discard unreadable"]);
    // In words, the step past the stream is still named for the records gone from it.
    const dryText = await runCli(["history", "replay", "--discard-unreplayable", "--dry-run"], table.env);
    expect(dryText.stdout).toContain(
      "Batches no longer in the stream: rewrite their users' history from the guards with `rewards history rebuild --user <id>` (or `--all`).\n",
    );
    expect(await bodiesIn(table, table.historyFailureQueueUrl)).toEqual(all);

    // Every delete after the first fails: all three printed first, one deleted, two kept.
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation: "DeleteMessage", fault: "http500", probability: 1, skip: 1 }],
      seed: 1,
    });
    const partWay = await runCli(["history", "replay", "--discard-unreplayable", "--json"], {
      ...table.env,
      AWS_ENDPOINT_URL_SQS: proxy.endpoint,
    });
    await proxy.stop();
    expect(partWay.code, partWay.stdout + partWay.stderr).toBe(1);
    const { printed, report } = linesOf(partWay.stdout);
    expect(printed.map((line) => line.discarding.body).sort()).toEqual([...unreplayable].sort());
    expect(printed.map((line) => line.discarding.outcome).sort()).toEqual(["gone", "gone", "unreadable"]);
    expect(report).toMatchObject({ batches: 4, written: 0, kept: 3, discarded: 1 });
    const outcomes = report.results.map((r: { outcome: string }) => r.outcome).sort();
    expect(outcomes).toEqual(["discarded", "failed", "failed", "incomplete"]);
    for (const result of report.results.filter((r: { outcome: string }) => r.outcome === "failed"))
      expect(result.reason).toMatch(/^printed, but not deleted \(it stays in the queue\): /);
    const left = await bodiesIn(table, table.historyFailureQueueUrl);
    expect(left).toHaveLength(3);
    expect(left).toContain(incomplete);
    // Nothing deleted that was not printed.
    const deleted = all.filter((body) => !left.includes(body));
    expect(deleted).toHaveLength(1);
    expect(unreplayable).toContain(deleted[0]);

    // Again, with nothing in the way: the two left deleted, the incomplete record kept.
    const again = await runCli(["history", "replay", "--discard-unreplayable"], table.env);
    expect(again.code).toBe(1);
    const lines = again.stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("discarding message ")).sort()).toEqual(
      report.results
        .filter((r: { outcome: string }) => r.outcome === "failed")
        .map((r: { messageId: string }) => {
          const shown = printed.find((line) => line.discarding.messageId === r.messageId).discarding;
          const why = shown.outcome === "gone" ? "no longer in the stream" : "not a failure record";
          return `discarding message ${r.messageId} (${why}): ${shown.body}`;
        })
        .sort(),
    );
    expect(again.stdout).toContain("0 awards written from 0 batches; 1 batch kept; 2 batches discarded\n");
    expect(await bodiesIn(table, table.historyFailureQueueUrl)).toEqual([incomplete]);
  });
});

describe("discarding in-process: shown first, deleted after", () => {
  it("every unreplayable record is shown before any is deleted, and none is deleted when showing fails", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const sqs = createSqsClient(table.env);
    const queueUrl = table.historyFailureQueueUrl;
    for (const body of [
      JSON.stringify(goneFailureRecord(table, "100")),
      JSON.stringify(goneFailureRecord(table, "200")),
      "{}",
    ])
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
    const options = {
      sqs,
      streams: streamsOf(table.env),
      target: historyReplayTarget(createHistoryDeps({ ...table.env, LOG_LEVEL: "silent" })),
      queueUrl,
      max: 10,
      dryRun: false,
    };

    // Showing fails (stdout closed, say): nothing deleted, each record kept and saying why.
    const unshown = await replayStreamFailures({
      ...options,
      discard: {
        show: async () => {
          throw new Error("stdout is closed");
        },
      },
    });
    expect(unshown.map((r) => [r.outcome, r.reason])).toEqual(
      Array.from({ length: 3 }, () => [
        "failed",
        "not discarded: it could not be printed first (stdout is closed)",
      ]),
    );
    expect(await queueCounts(sqs, queueUrl)).toMatchObject({ visible: 3, inFlight: 0 });

    // Shown while every one of them is still in the queue (held by the pass), deleted after.
    const whenShown: unknown[] = [];
    const discarded = await replayStreamFailures({
      ...options,
      discard: {
        show: async (records) => {
          whenShown.push(records.map((r) => r.outcome).sort(), await queueCounts(sqs, queueUrl));
        },
      },
    });
    expect(whenShown).toEqual([["gone", "gone", "unreadable"], { visible: 0, inFlight: 3, delayed: 0 }]);
    expect(discarded.map((r) => r.outcome)).toEqual(["discarded", "discarded", "discarded"]);
    expect(await queueCounts(sqs, queueUrl)).toMatchObject({ visible: 0, inFlight: 0 });
  });
});

describe("failures while another reader holds the records", () => {
  it.for([
    ["history", "HISTORY_FAILURE_QUEUE_URL"],
    ["grants", "ANNOUNCER_FAILURE_QUEUE_URL"],
  ] as const)(
    "%s failures says how many another reader holds, and claims nothing",
    async ([group, variable], { stack }) => {
      const table = await ownTable(stack);
      const queueUrl = table.env[variable] as string;
      const sqs = createSqsClient(table.env);
      for (const body of ["not json 1", "not json 2"])
        await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
      // Another reader (a replay under way, say) holds both.
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 120 }),
      );
      expect(Messages).toHaveLength(2);
      const listed = await runCli([group, "failures"], table.env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toBe(
        "no given-up batches visible (2 held by another reader: try again in a while)\n",
      );
      const json = await runCli([group, "failures", "--json"], table.env);
      expect(JSON.parse(json.stdout)).toEqual([]);
      expect(json.stderr).toContain("rewards: not shown: 2 held by another reader: try again in a while\n");
    },
  );
});

describe("--drain stopped before catching up", () => {
  it("history --drain stopped by SIGINT while it still retries a batch exits 1 and says so", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award(table.env, [completed(`hs-${randomUUID().slice(0, 6)}`, "a")]);
    const proxy = await throttledPuts(stack);
    const checkpoint = await checkpointFile();
    // Retried until the records expire: nothing given up, the checkpoint stays before the batch.
    const writer = startCli(
      ["history", "--drain", "--max-retries", "-1", "--checkpoint", checkpoint, "--json"],
      { ...writerThrough(table, proxy.endpoint), LOG_LEVEL: "warn" },
    );
    expect(await waitFor(() => proxy.counts().throttle >= 3)).toBe(true);
    writer.child.kill("SIGINT");
    const code = await writer.exited;
    const { stdout, stderr } = writer.output();
    expect(code, stderr).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ written: 0, givenUp: 0 });
    expect(stderr).toContain(
      `rewards: --drain stopped by SIGINT before the history's writer caught up with the stream; run it again to go on (it resumes from ${checkpoint})\n`,
    );
  });

  it("announcer --drain stopped by SIGINT while the bus refuses exits 1 and says so", async ({ stack }) => {
    const table = await ownTable(stack);
    await award(table.env, [completed(`as-${randomUUID().slice(0, 6)}`, "a")]);
    const proxy = await startFaultProxy({
      target: table.env.AWS_ENDPOINT_URL_EVENTBRIDGE as string,
      rules: [{ operation: "PutEvents", fault: "throttle", probability: 1 }],
      seed: 1,
    });
    onTestFinished(() => proxy.stop());
    const announcer = startCli(["announcer", "--drain", "--max-retries", "-1"], {
      ...table.env,
      AWS_ENDPOINT_URL_EVENTBRIDGE: proxy.endpoint,
      LOG_LEVEL: "warn",
    });
    expect(await waitFor(() => proxy.counts().throttle >= 3)).toBe(true);
    announcer.child.kill("SIGINT");
    const code = await announcer.exited;
    const { stderr } = announcer.output();
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      "rewards: --drain stopped by SIGINT before the announcer caught up with the stream; run it again to go on\n",
    );
  });
});

describe("failures and replay part-way, for both stream functions (one registerStreamFailureCommands)", () => {
  it.for([
    ["history", "failures", "ChangeMessageVisibilityBatch", 0],
    ["history", "failures", "ReceiveMessage", 1],
    ["history", "replay", "ChangeMessageVisibilityBatch", 0],
    ["history", "replay", "ReceiveMessage", 1],
    ["grants", "failures", "ChangeMessageVisibilityBatch", 0],
    ["grants", "failures", "ReceiveMessage", 1],
    ["grants", "replay", "ChangeMessageVisibilityBatch", 0],
    ["grants", "replay", "ReceiveMessage", 1],
  ] as const)(
    "%s %s with %s failing keeps every record",
    async ([group, command, operation, skip], { stack }) => {
      const table = await ownTable(stack);
      const queueUrl = group === "history" ? table.historyFailureQueueUrl : table.announcerFailureQueueUrl;
      const sqs = createSqsClient(table.env);
      for (let i = 0; i < 12; i++)
        await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `not json ${i}` }));
      const proxy = await startFaultProxy({
        target: stack.endpoints.sqs,
        rules: [{ operation, fault: "http500", probability: 1, skip }],
        seed: 1,
      });
      const run = await runCli([group, command, "--max", "20", "--json"], {
        ...table.env,
        AWS_ENDPOINT_URL_SQS: proxy.endpoint,
      });
      await proxy.stop();
      expect(run.code).toBe(1);
      const { visible, inFlight } = await queueCounts(sqs, queueUrl);
      expect(visible + inFlight).toBe(12);
      if (operation === "ChangeMessageVisibilityBatch") {
        expect(run.stderr).toContain("not released");
        const shown = JSON.parse(run.stdout);
        expect(command === "failures" ? shown : shown.results).toHaveLength(12);
      } else expect(visible).toBe(12);
    },
  );
});
