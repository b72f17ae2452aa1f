import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import { EventBridgeClient, PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createAnnouncer, createAnnouncerDeps, isAwardCandidate } from "@rewards/announcer";
import {
  createDynamoClient,
  createLogger,
  createSqsClient,
  grantId,
  profileKey,
  type RewardGranted,
  rewardGrantedSchema,
  streamBatchFailureSchema,
} from "@rewards/core";
import {
  fileCheckpoints,
  memoryCheckpoints,
  type Provisioned,
  provision,
  type StreamHandler,
  type StreamSourceOptions,
  startLocalBus,
  startStreamSource,
} from "@rewards/local";
import {
  completed,
  drain,
  lambdaContext,
  runCli,
  sqsEvent,
  sqsRecord,
  stackTest,
  waitFor,
} from "@rewards/testing";
import { createHandler, createWorkerDeps } from "@rewards/worker";
import { describe, expect, onTestFinished } from "vitest";

const it = stackTest();
const silent = createLogger({ level: "silent" });
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

/**
 * A table (with its stream), queues and a local bus of the test's own: a stream holds every
 * write to its table, and this bus delivers to this test's grants queue only.
 */
async function ownTable(stack: {
  env: Record<string, string>;
  endpoints: { sqs: string; dynamodb: string };
}) {
  const sqs = new SQSClient({ region: "us-east-1", endpoint: stack.endpoints.sqs, credentials });
  const dynamo = new DynamoDBClient({ region: "us-east-1", endpoint: stack.endpoints.dynamodb, credentials });
  const name = `a-${randomUUID().slice(0, 8)}`;
  try {
    const provisioned = await provision(sqs, dynamo, {
      tableName: name,
      queueName: name,
      dlqName: `${name}-dlq`,
      announcerFailureQueueName: `${name}-failures`,
      grantsQueueName: `${name}-grants`,
    });
    const bus = await startLocalBus({
      busName: `${name}-bus`,
      region: "us-east-1",
      sqs: createSqsClient(stack.env),
      rules: [{ name: "all", pattern: { source: ["rewards"] }, queueUrl: provisioned.grantsQueueUrl }],
    });
    onTestFinished(() => bus.stop());
    const env: Record<string, string> = {
      ...stack.env,
      AWS_ENDPOINT_URL_EVENTBRIDGE: bus.endpoint,
      BUS_NAME: bus.busName,
      TABLE_NAME: provisioned.tableName,
      QUEUE_URL: provisioned.queueUrl,
      DLQ_URL: provisioned.dlqUrl,
      ANNOUNCER_FAILURE_QUEUE_URL: provisioned.announcerFailureQueueUrl,
      GRANTS_QUEUE_URL: provisioned.grantsQueueUrl,
    };
    return { ...provisioned, env };
  } finally {
    sqs.destroy();
    dynamo.destroy();
  }
}

const streamsOf = (env: Record<string, string>) =>
  new DynamoDBStreamsClient({ region: "us-east-1", endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, credentials });

/** Everything a stream holds, read directly with the SDK. */
async function everyRecord(env: Record<string, string>, streamArn: string) {
  const streams = streamsOf(env);
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const records = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    let { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.ShardId,
        ShardIteratorType: "TRIM_HORIZON",
      }),
    );
    while (ShardIterator) {
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator }));
      records.push(...(answer.Records ?? []));
      if ((answer.Records ?? []).length === 0) break;
      ShardIterator = answer.NextShardIterator;
    }
  }
  return records;
}

/** Runs the worker, in this process, on `bodies` against the test's table. */
async function award(env: Record<string, string>, bodies: string[]) {
  const handler = createHandler({
    ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }),
    emitMetrics: () => {},
  });
  return handler(sqsEvent(bodies.map((body) => sqsRecord(body))), lambdaContext());
}

/** The grants the local bus delivered to the test's grants queue. */
async function grantsIn(env: Record<string, string>, queueUrl: string): Promise<RewardGranted[]> {
  const messages = await drain(createSqsClient(env), queueUrl);
  return messages.map((m) => {
    const envelope = JSON.parse(m.Body ?? "");
    expect(envelope).toMatchObject({ version: "0", "detail-type": "reward.granted", source: "rewards" });
    return rewardGrantedSchema.parse(envelope.detail);
  });
}

type Invocation = { sequenceNumbers: string[]; keys: string[] };

/** A stream source over the test's table, recording what each invocation was handed. */
async function sourceFor(
  table: Provisioned & { env: Record<string, string> },
  handler: StreamHandler,
  options: Partial<StreamSourceOptions> = {},
) {
  const invocations: Invocation[] = [];
  const failures: unknown[] = [];
  const source = await startStreamSource({
    streams: streamsOf(table.env),
    streamArn: table.streamArn,
    logger: silent,
    pollIntervalMs: 20,
    retryDelayMs: 1,
    handler: (event, context) => {
      invocations.push({
        sequenceNumbers: event.Records.map((r) => r.dynamodb?.SequenceNumber ?? ""),
        keys: event.Records.map((r) => String(r.dynamodb?.Keys?.pk?.S)),
      });
      return handler(event, context);
    },
    onFailure: async (failure) => {
      failures.push(failure);
    },
    ...options,
  });
  return { source, invocations, failures };
}

const announced = (env: Record<string, string>): StreamHandler =>
  createAnnouncer({ ...createAnnouncerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} });

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
      filter: isAwardCandidate,
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
      { filter: isAwardCandidate },
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
    await award(
      table.env,
      ["a", "b", "c", "d"].map((article) => completed(user, article)),
    );
    const poisoned = `IDEM#${user}#c#article.completed`;
    const { source, invocations, failures } = await sourceFor(
      table,
      async (event) => {
        if (event.Records.some((r) => r.dynamodb?.Keys?.pk?.S === poisoned)) throw new Error("boom");
      },
      { filter: isAwardCandidate, bisectBatchOnFunctionError: true, maximumRetryAttempts: 1 },
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
    // The given-up range runs from the failing guard to the end of its half (its profile's record).
    expect(failure.DDBStreamBatchInfo).toMatchObject({
      shardId: expect.stringMatching(/^shardId-/),
      startSequenceNumber: poisonSeq,
      endSequenceNumber: String(BigInt(poisonSeq ?? 0) + 1n),
      batchSize: 2,
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
      { filter: isAwardCandidate, maximumRetryAttempts: 2 },
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

describe("operating the announcer with the CLI", () => {
  it("replays a given-up batch from the stream, and republishes from the table with the same ids", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `o-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "b")]);
    // An announcer whose bus is missing: every batch fails and is given up at once.
    const broken = announced({ ...table.env, BUS_NAME: "no-such-bus" });
    const { source, failures } = await sourceFor(table, broken, {
      filter: isAwardCandidate,
      maximumRetryAttempts: 0,
      onFailure: async (failure) => {
        failures.push(failure);
        await createSqsClient(table.env).send(
          new SendMessageCommand({
            QueueUrl: table.announcerFailureQueueUrl,
            MessageBody: JSON.stringify(failure),
          }),
        );
      },
    });
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    await source.stop();

    const peek = await runCli(["grants", "failures", "--json"], table.env);
    expect(peek.code).toBe(0);
    expect(JSON.parse(peek.stdout)).toEqual(failures);

    const dry = await runCli(["grants", "replay", "--dry-run", "--json"], table.env);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      batches: 1,
      published: 0,
      results: [{ awards: 2, outcome: "would republish" }],
    });
    const replay = await runCli(["grants", "replay"], table.env);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("2 awards published from 1 batch; 0 batches kept");
    expect((await runCli(["grants", "failures"], table.env)).stdout).toBe(
      "no given-up batches: every award was announced\n",
    );

    const first = await grantsIn(table.env, table.grantsQueueUrl);
    expect(first.map((g) => g.data.intentKey)).toEqual([
      `${user}#a#article.completed`,
      `${user}#b#article.completed`,
    ]);
    const republish = await runCli(
      ["grants", "republish", "--since", "2020-01-01", "--user", user, "--json"],
      table.env,
    );
    expect(JSON.parse(republish.stdout)).toEqual({ found: 2, published: 2, unreadable: [], failed: [] });
    const again = await grantsIn(table.env, table.grantsQueueUrl);
    expect(new Set(again.map((g) => g.id))).toEqual(new Set(first.map((g) => g.id)));
  });

  it("keeps a failure record whose records the stream no longer holds, and says what to do", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const gone = {
      requestContext: {
        requestId: "r",
        functionArn: "f",
        condition: "RetryAttemptsExhausted",
        approximateInvokeCount: 11,
      },
      version: "1.0",
      timestamp: "2026-12-01T00:00:00.000Z",
      DDBStreamBatchInfo: {
        shardId: "shardId-1",
        startSequenceNumber: "100",
        endSequenceNumber: "101",
        batchSize: 2,
        streamArn: `${table.streamArn.split("/stream/")[0]}-deleted/stream/2026-01-01T00:00:00.000`,
      },
    };
    const sqs = createSqsClient(table.env);
    await sqs.send(
      new SendMessageCommand({ QueueUrl: table.announcerFailureQueueUrl, MessageBody: JSON.stringify(gone) }),
    );
    await sqs.send(
      new SendMessageCommand({ QueueUrl: table.announcerFailureQueueUrl, MessageBody: "not json" }),
    );
    const replay = await runCli(["grants", "replay"], table.env);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain("no longer in the stream (kept)");
    expect(replay.stdout).toContain("not a failure record (kept)");
    expect(replay.stdout).toContain("rewards grants republish --since");
    expect(replay.stdout).toContain("0 awards published from 0 batches; 2 batches kept");
  });

  it("rewards announcer --drain runs the deployable bundle and says what it announced", async ({ stack }) => {
    const table = await ownTable(stack);
    const user = `d-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "a"), completed(user, "b")]);
    const run = await runCli(["announcer", "--drain", "--function", "artifact", "--json"], table.env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      announced: 2,
      skipped: 0,
      failed: 0,
      invocations: 1,
      records: 2,
      retries: 0,
      givenUp: 0,
    });
    const tail = await runCli(["grants", "tail", "--json"], table.env);
    expect(
      tail.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).data.intentKey),
    ).toEqual([`${user}#a#article.completed`, `${user}#b#article.completed`]);
    const noBus = await runCli(["announcer", "--drain"], { ...table.env, BUS_NAME: "" });
    expect(noBus.code).toBe(1);
    expect(noBus.stderr).toContain("BUS_NAME");
  });
});
