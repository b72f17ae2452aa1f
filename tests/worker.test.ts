import { createServer, type Server } from "node:net";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, intentKey, MAX_MESSAGE_BYTES, profileKey } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import {
  completed,
  conflicted,
  drain,
  eventBody,
  guardOf,
  lambdaContext,
  profileOf,
  recordAttempts,
  signup,
  sqsEvent,
  sqsRecord,
  stackTest,
  throttled,
} from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import type { SQSEvent } from "aws-lambda";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";

const it = stackTest();
let userSeq = 0;
/** A fresh user per test keeps tests independent on one shared table. */
const newUser = (label: string) => `${label}-${++userSeq}`;

type TestDeps = WorkerDeps & { env: Record<string, string> };

function depsFor(env: Record<string, string>, overrides: Partial<WorkerDeps> = {}): TestDeps {
  return { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {}, ...overrides, env };
}

const run = (deps: WorkerDeps, bodies: string[], context = lambdaContext()) =>
  processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body))), context);
/** Read through a client of its own: the one under test may be injecting faults. */
const xpOf = async (deps: TestDeps, userId: string) =>
  (await profileOf(createDynamoClient({ AWS_REGION: "us-east-1", ...deps.env }), deps.tableName, userId))?.xp;
const fastRetries = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 };

describe("the batch worker against the local stack", () => {
  it("ends every message in one of the four outcomes and reports only failed ones", async ({ env }) => {
    const deps = depsFor(env, { dlqUrl: undefined });
    const user = newUser("mixed");
    const records = [
      sqsRecord(completed(user, "a")),
      sqsRecord(completed(user, "a")), // same intent, other emission: duplicate
      sqsRecord(signup(user)),
      sqsRecord("{not json"),
    ];
    const { response, results, counts } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(results.map((r) => [r.messageId, r.outcome])).toEqual([
      [records[0]?.messageId, "awarded"],
      [records[1]?.messageId, "duplicate"],
      [records[2]?.messageId, "awarded"],
      [records[3]?.messageId, "failed"],
    ]);
    expect(counts).toEqual({ awarded: 2, duplicate: 1, parked: 0, failed: 1 });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: records[3]?.messageId }] });
    expect(await xpOf(deps, user)).toBe(120);
  });

  it("answers in input order when the users of a batch interleave (groups finish in any order)", async ({
    env,
  }) => {
    const deps = depsFor(env, { dlqUrl: undefined });
    const [ann, bob] = [newUser("order-ann"), newUser("order-bob")];
    const records = [
      sqsRecord(completed(ann, "a")),
      sqsRecord(completed(bob, "a")),
      sqsRecord(completed(ann, "a")),
      sqsRecord("{not json"),
      sqsRecord(signup(bob)),
      sqsRecord(signup(ann)),
    ];
    const { results, response } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(results.map((r) => [r.messageId, r.outcome])).toEqual([
      [records[0]?.messageId, "awarded"],
      [records[1]?.messageId, "awarded"],
      [records[2]?.messageId, "duplicate"],
      [records[3]?.messageId, "failed"],
      [records[4]?.messageId, "awarded"],
      [records[5]?.messageId, "awarded"],
    ]);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: records[3]?.messageId }] });
  });

  it("pays one intent once across batches, whatever the message and event ids", async ({ env }) => {
    const deps = depsFor(env);
    const user = newUser("across");
    const firstBody = completed(user, "idempotent-writes");
    const first = await run(deps, [firstBody]);
    const second = await run(deps, [
      completed(user, "idempotent-writes"),
      completed(user, "idempotent-writes"),
    ]);
    expect(first.counts).toMatchObject({ awarded: 1, duplicate: 0 });
    expect(second.counts).toMatchObject({ awarded: 0, duplicate: 2 });
    const profile = await profileOf(deps.dynamo, deps.tableName, user);
    expect(profile).toEqual({
      ...profileKey(user),
      xp: 20,
      awards: 1,
      "count:article.completed": 1,
      updatedAt: expect.any(String),
    });
    const key = intentKey([user, "idempotent-writes", "article.completed"]);
    const guard = await guardOf(deps.dynamo, deps.tableName, key);
    const awardedAt = Date.parse(guard?.awardedAt);
    expect(guard).toEqual({
      ...guardKey(key),
      userId: user,
      type: "article.completed",
      amount: 20,
      eventId: expect.stringMatching(/^evt-/),
      messageId: first.results[0]?.messageId,
      awardedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expiresAt: Math.floor(awardedAt / 1000) + 90 * 86_400,
      // For the history (docs/history.md): the validated data without userId, and the event's own time.
      data: { articleSlug: "idempotent-writes" },
      eventTime: JSON.parse(firstBody).time,
      // Counted toward its type (a revocation takes it off only then: docs/reading.md#counts).
      counted: true,
    });
    expect(first.results[0]).toMatchObject({ outcome: "awarded", intentKey: key, attempts: 1 });
  });

  it("50 concurrent invocations of one intent pay exactly 20 XP and fail nothing", async ({ env }) => {
    const deps = depsFor(env);
    const user = newUser("race");
    const batches = await Promise.all(Array.from({ length: 50 }, () => run(deps, [completed(user, "hot")])));
    const outcomes = batches.flatMap((b) => b.results.map((r) => r.outcome));
    expect(outcomes.filter((o) => o === "awarded")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(49);
    expect(batches.flatMap((b) => b.response.batchItemFailures)).toEqual([]);
    expect(await xpOf(deps, user)).toBe(20);
  });

  it("an expired guard still in the table is awarded again; a signup guard never expires", async ({
    env,
  }) => {
    const deps = depsFor(env);
    const user = newUser("ttl");
    const key = intentKey([user, "old", "article.completed"]);
    await deps.dynamo.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: {
          ...guardKey(key),
          userId: user,
          type: "article.completed",
          amount: 20,
          expiresAt: Math.floor(Date.now() / 1000) - 60,
        },
      }),
    );
    expect((await run(deps, [completed(user, "old")])).counts.awarded).toBe(1);
    expect(await xpOf(deps, user)).toBe(20);

    expect((await run(deps, [signup(user)])).counts.awarded).toBe(1);
    const signupGuard = await guardOf(deps.dynamo, deps.tableName, intentKey([user, "signup.completed"]));
    expect(signupGuard).toBeDefined();
    expect(signupGuard?.expiresAt).toBeUndefined();
    const inTenYears = { ...deps, clock: () => Date.now() + 10 * 365 * 86_400_000 };
    expect((await run(inTenYears, [signup(user)])).counts.duplicate).toBe(1);
    expect(await xpOf(deps, user)).toBe(120);
  });

  it("one pinned clock pins the whole invocation: the guard's times, parkedAt and the EMF timestamp", async ({
    env,
    queues,
  }) => {
    // An hour ahead of the real clock, which dates the event: an hour old is still payable,
    // and nothing that read the real clock could produce this instant by chance.
    const pinned = Math.floor(Date.now() / 1000) * 1000 + 3_600_007;
    const lines: string[] = [];
    const deps = depsFor(env, { clock: () => pinned, emitMetrics: (line) => lines.push(line) });
    const user = newUser("pinned");
    const records = [sqsRecord(completed(user, "pinned")), sqsRecord("{")];
    const { counts, durationMs } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(counts).toEqual({ awarded: 1, duplicate: 0, parked: 1, failed: 0 });
    expect(durationMs).toBe(0);
    const guard = await guardOf(
      deps.dynamo,
      deps.tableName,
      intentKey([user, "pinned", "article.completed"]),
    );
    expect(guard?.awardedAt).toBe(new Date(pinned).toISOString());
    expect(guard?.expiresAt).toBe(Math.floor(pinned / 1000) + 90 * 86_400);
    expect((await profileOf(deps.dynamo, deps.tableName, user))?.updatedAt).toBe(
      new Date(pinned).toISOString(),
    );
    const [parked] = await drain(deps.sqs, queues.dlqUrl);
    expect(parked?.MessageAttributes?.["rewards.parkedAt"]?.StringValue).toBe(new Date(pinned).toISOString());
    expect(JSON.parse(lines[0] as string)._aws.Timestamp).toBe(pinned);
  });

  it("parks poison messages in the DLQ with the body unchanged and the rewards.* attributes", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const poison = [
      sqsRecord("{not json", {
        messageAttributes: { type: { dataType: "String", stringValue: "article.completed" } },
      }),
      sqsRecord(eventBody("article.completed", { userId: "u" })),
      sqsRecord(eventBody("article.liked", { userId: "u" }), {
        messageAttributes: {
          type: { dataType: "String", stringValue: "article.liked" },
          specversion: { dataType: "String", stringValue: "1.0" },
          blob: { dataType: "Binary", binaryValue: Buffer.from([1, 2, 3]).toString("base64") },
        },
      }),
    ];
    const { response, results } = await processBatch(deps, sqsEvent(poison), lambdaContext());
    expect(response.batchItemFailures).toEqual([]);
    expect(results.map((r) => r.parkCode)).toEqual(["invalid_json", "invalid_event", "unknown_type"]);
    const parked = await drain(deps.sqs, queues.dlqUrl);
    expect(parked).toHaveLength(3);
    const bySource = new Map(
      parked.map((m) => [m.MessageAttributes?.["rewards.sourceMessageId"]?.StringValue, m]),
    );
    for (const [index, record] of poison.entries()) {
      const message = bySource.get(record.messageId);
      expect(message?.Body).toBe(record.body);
      expect(message?.MessageAttributes?.["rewards.error"]?.StringValue).toBe(results[index]?.parkCode);
      expect(Date.parse(message?.MessageAttributes?.["rewards.parkedAt"]?.StringValue ?? "")).not.toBeNaN();
    }
    expect(bySource.get(poison[1]?.messageId)?.MessageAttributes?.["rewards.reason"]?.StringValue).toBe(
      "data.articleSlug: Invalid input: expected string, received undefined",
    );
    const liked = bySource.get(poison[2]?.messageId)?.MessageAttributes ?? {};
    expect(Object.keys(liked).sort()).toEqual([
      "blob",
      "rewards.error",
      "rewards.firstSentAt",
      "rewards.parkedAt",
      "rewards.reason",
      "rewards.sourceMessageId",
      "specversion",
      "type",
    ]);
    expect(liked.type?.StringValue).toBe("article.liked");
    expect([...(liked.blob?.BinaryValue ?? [])]).toEqual([1, 2, 3]);
  });

  it("SNS- and EventBridge-wrapped copies of a raw event pay once; wrapped poison keeps its outer body", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const user = newUser("wrapped");
    const data = { userId: user, articleSlug: "wrapped" };
    const raw = eventBody("article.completed", data);
    const sns = (message: string) =>
      JSON.stringify({ Type: "Notification", TopicArn: "arn:t", Message: message });
    const eventBridge = (type: string, detail: unknown) =>
      JSON.stringify({
        version: "0",
        id: "eb-1",
        "detail-type": type,
        source: "s",
        time: new Date().toISOString(),
        detail,
      });
    const poison = [sns("{not json"), eventBridge("article.liked", data)];
    const { results } = await run(deps, [sns(raw), raw, eventBridge("article.completed", data), ...poison]);
    expect(results.map((r) => [r.outcome, r.parkCode])).toEqual([
      ["awarded", undefined],
      ["duplicate", undefined],
      ["duplicate", undefined],
      ["parked", "invalid_json"],
      ["parked", "unknown_type"],
    ]);
    expect(await xpOf(deps, user)).toBe(20);
    const parked = await drain(deps.sqs, queues.dlqUrl);
    expect(parked.map((m) => m.Body).sort()).toEqual([...poison].sort());
  });

  it("sends nothing but the parked copy to SQS: the event source deletes and redelivers", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const sent = recordAttempts(deps.sqs);
    await run(deps, [completed(newUser("quiet"), "a"), "{poison", completed(newUser("quiet"), "b")]);
    expect(sent.map((a) => a.command)).toEqual(["SendMessageCommand"]);
    expect(JSON.parse(sent[0]?.body ?? "{}").QueueUrl).toBe(queues.dlqUrl);
  });

  it("parks a poison body near SQS's 1 MiB limit, dropping attributes and shortening the reason to fit", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const body = `{${"x".repeat(MAX_MESSAGE_BYTES - 200)}`;
    const record = sqsRecord(body, {
      messageAttributes: { type: { dataType: "String", stringValue: "article.completed" } },
    });
    const { results } = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(results[0]).toMatchObject({ outcome: "parked", parkCode: "invalid_json" });
    const [parked] = await drain(deps.sqs, queues.dlqUrl);
    expect(parked?.Body).toBe(body);
    expect(parked?.MessageAttributes?.["rewards.error"]?.StringValue).toBe("invalid_json");
    expect(parked?.MessageAttributes?.["rewards.sourceMessageId"]?.StringValue).toBe(record.messageId);
    expect(parked?.MessageAttributes?.type).toBeUndefined();
  });

  it("a body too large for even rewards.error and rewards.sourceMessageId is failed, for the redrive policy", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const record = sqsRecord(`{${"x".repeat(MAX_MESSAGE_BYTES - 20)}`);
    const { results, response } = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "park_failed" });
    expect(results[0]?.detail).toMatch(/TooLargeToPark/);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(await drain(deps.sqs, queues.dlqUrl)).toEqual([]);
  });

  it("without DLQ_URL, poison messages are failed so the redrive policy moves them", async ({ env }) => {
    const deps = depsFor(env, { dlqUrl: undefined });
    const record = sqsRecord("{not json");
    const { response, results } = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "park_failed", parkCode: "invalid_json" });
    expect(results[0]?.detail).toMatch(/; not parked: DLQ_URL is not set$/);
  });

  it("a FIFO DLQ gets the message's group and its id for deduplication", async ({ env }) => {
    const sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" });
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `t-${Date.now()}-dlq.fifo`, Attributes: { FifoQueue: "true" } }),
    );
    const deps = depsFor(env, { dlqUrl: QueueUrl });
    const record = sqsRecord("{poison", { groupId: "g-1" });
    const { results } = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(results[0]).toMatchObject({ outcome: "parked", parkCode: "invalid_json" });
    const [parked] = await drain(sqs, QueueUrl as string);
    expect(parked?.Attributes).toMatchObject({
      MessageGroupId: "g-1",
      MessageDeduplicationId: record.messageId,
    });
  });

  it("a user whose xp is corrupted is parked as rejected; the rest of the batch is unaffected", async ({
    env,
    queues,
  }) => {
    const deps = depsFor(env);
    const broken = newUser("corrupt");
    const fine = newUser("fine");
    await deps.dynamo.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: profileKey(broken),
        UpdateExpression: "SET xp = :text",
        ExpressionAttributeValues: { ":text": "twenty" },
      }),
    );
    const { results, response } = await run(deps, [completed(broken, "x"), completed(fine, "x")]);
    expect(response.batchItemFailures).toEqual([]);
    expect(results.map((r) => [r.outcome, r.parkCode])).toEqual([
      ["parked", "rejected"],
      ["awarded", undefined],
    ]);
    expect(await xpOf(deps, fine)).toBe(20);
    expect(await xpOf(deps, broken)).toBe("twenty");
    const [parked] = await drain(deps.sqs, queues.dlqUrl);
    expect(parked?.MessageAttributes?.["rewards.error"]?.StringValue).toBe("rejected");
    // An item-level cancellation reason, as AWS reports it: not a top-level ValidationException.
    expect(parked?.MessageAttributes?.["rewards.reason"]?.StringValue).toBe(
      `the profile of user ${JSON.stringify(broken)} (USER#${broken}) was refused: An operand in the update expression has an incorrect data type — ` +
        `the award adds to its xp, awards and its type's count (count:<type>), which must all be numbers, ` +
        `and stamps its updatedAt, which must be an instant; repair xp and updatedAt with \`rewards user ${broken} --set-xp <n> --yes\` (awards or a count by hand: docs/operations.md#repairing-a-profile), then replay ` +
        "(TransactionCanceledException [None, ValidationError]: Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError])",
    );
    // The guard was rolled back with the update: a fixed profile can still be paid.
    expect(
      await guardOf(deps.dynamo, deps.tableName, intentKey([broken, "x", "article.completed"])),
    ).toBeUndefined();
  });

  it("a wrong table schema (top-level ValidationException) is a configuration failure, never parked", async ({
    env,
    stack,
    queues,
  }) => {
    // Version 0 without reading the rules: this test is about the transaction's failure (the
    // rules' read on such a table fails the batch as `no_rules`, tests/rulesWorker.test.ts).
    const deps = { ...depsFor({ ...env, TABLE_NAME: "wrong-schema" }), rules: undefined };
    const { CreateTableCommand, DynamoDBClient } = await import("@aws-sdk/client-dynamodb");
    const admin = new DynamoDBClient({
      region: "us-east-1",
      endpoint: stack.endpoints.dynamodb,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    });
    await admin
      .send(
        new CreateTableCommand({
          TableName: "wrong-schema",
          BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        }),
      )
      .catch(() => {});
    const { results, response } = await run(deps, [completed(newUser("schema"), "a")]);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "configuration", attempts: 1 });
    // What failed is named, in words and as fields (the log line carries `call`).
    expect(results[0]?.detail).toMatch(
      new RegExp(
        `^DynamoDB TransactWriteItems on table wrong-schema at ${env.AWS_ENDPOINT_URL_DYNAMODB}: ValidationException`,
      ),
    );
    expect(results[0]?.call).toEqual({
      service: "DynamoDB",
      operation: "TransactWriteItems",
      resource: "table wrong-schema",
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
    });
    expect(response.batchItemFailures).toHaveLength(1);
    expect(await drain(deps.sqs, queues.dlqUrl)).toEqual([]);
  });

  it("starts nothing when the invocation is already inside its safety margin", async ({ env }) => {
    const deps = depsFor(env, { safetyMarginMs: 5000 });
    const user = newUser("late");
    const { response, results } = await run(
      deps,
      [completed(user, "a"), completed(user, "b")],
      lambdaContext(4000),
    );
    expect(results.map((r) => r.cause)).toEqual(["deadline", "deadline"]);
    expect(response.batchItemFailures).toHaveLength(2);
    expect(await xpOf(deps, user)).toBeUndefined();
  });

  it.for([10_001, 7_777, 4_003, 2_501, 1_999])(
    "a budget of %i ms (any whole number) awards every message",
    async (remainingMs, { env }) => {
      const deps = depsFor(env);
      const user = newUser(`budget-${remainingMs}`);
      const { results } = await run(deps, [completed(user, "a"), signup(user)], lambdaContext(remainingMs));
      expect(results.map((r) => [r.outcome, r.attempts])).toEqual([
        ["awarded", 1],
        ["awarded", 1],
      ]);
      expect(await xpOf(deps, user)).toBe(120);
    },
  );

  it("emits one EMF line per batch in the Rewards namespace with the batch's counts and duration", async ({
    env,
  }) => {
    const lines: string[] = [];
    const start = Date.now();
    let reads = 0;
    const deps = depsFor(env, {
      dlqUrl: undefined,
      emitMetrics: (line) => lines.push(line),
      // The batch's first reading is its start; every later one (the end among them) is 63 ms on.
      clock: () => start + (reads++ === 0 ? 0 : 63),
    });
    await run(deps, [completed(newUser("emf"), "a"), "{"]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual({
      _aws: {
        Timestamp: start,
        CloudWatchMetrics: [
          {
            Namespace: "Rewards",
            Dimensions: [["service", "stage"]],
            Metrics: [
              { Name: "awarded", Unit: "Count" },
              { Name: "duplicate", Unit: "Count" },
              { Name: "parked", Unit: "Count" },
              { Name: "failed", Unit: "Count" },
              { Name: "batchDuration", Unit: "Milliseconds" },
            ],
          },
        ],
      },
      service: "rewards-worker",
      // No REWARDS_STAGE in a local stack's environment: the functions' own default.
      stage: "local",
      awarded: 1,
      duplicate: 0,
      parked: 0,
      failed: 1,
      batchDuration: 63,
    });
  });
});

describe("the Lambda entry point (packages/worker/src/handler.ts)", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it("builds its clients from the environment when it loads, and handles batches", async ({
    env,
    queues,
  }) => {
    vi.resetModules();
    // The stage as the deploy sets it: the metrics carry it.
    process.env = { ...saved, ...env, LOG_LEVEL: "silent", REWARDS_STAGE: "pr-42" };
    const { handler } = await import("../packages/worker/src/handler");
    const user = newUser("handler");
    // On Lambda the metrics line goes to stdout, which CloudWatch Logs turns into metrics.
    const written: string[] = [];
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const response = await handler(
      sqsEvent([sqsRecord(completed(user, "a")), sqsRecord("nope")]),
      lambdaContext(),
    );
    stdout.mockRestore();
    expect(response).toEqual({ batchItemFailures: [] });
    expect(written.map((line) => JSON.parse(line))).toMatchObject([
      {
        _aws: { CloudWatchMetrics: [{ Namespace: "Rewards", Dimensions: [["service", "stage"]] }] },
        service: "rewards-worker",
        stage: "pr-42",
        awarded: 1,
        parked: 1,
        failed: 0,
      },
    ]);
    const deps = depsFor(env);
    expect(await xpOf(deps, user)).toBe(20);
    expect(await drain(deps.sqs, queues.dlqUrl)).toHaveLength(1);
  });

  it("fails at load, naming every bad variable, when the configuration is invalid", async () => {
    vi.resetModules();
    process.env = { ...saved, TABLE_NAME: "", DLQ_URL: "not a url", LOG_LEVEL: "silent" };
    const loading = import("../packages/worker/src/handler");
    // A fresh module graph has its own ConfigError class: compare by name.
    await expect(loading).rejects.toMatchObject({ name: "ConfigError" });
    await expect(loading).rejects.toThrow(
      "invalid configuration: DLQ_URL must be a URL; TABLE_NAME is required",
    );
  });
});

describe("FIFO sources", () => {
  it("after a failure, that message and every later one of its group are failed; other groups go on", async ({
    env,
  }) => {
    const deps = depsFor(env, { dlqUrl: undefined });
    const arn = "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo";
    const ann = newUser("fifo-ann");
    const bob = newUser("fifo-bob");
    const records = [
      sqsRecord(completed(ann, "a"), { groupId: "g1", queueArn: arn }),
      sqsRecord("{", { groupId: "g1", queueArn: arn }), // cannot be parked without a DLQ
      sqsRecord(completed(ann, "b"), { groupId: "g1", queueArn: arn }),
      sqsRecord(completed(bob, "a"), { groupId: "g2", queueArn: arn }),
    ];
    const { response, results } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(results.map((r) => [r.messageId, r.outcome, r.cause])).toEqual([
      [records[0]?.messageId, "awarded", undefined],
      [records[1]?.messageId, "failed", "park_failed"],
      [records[2]?.messageId, "failed", "fifo_blocked"],
      [records[3]?.messageId, "awarded", undefined],
    ]);
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([
      records[1]?.messageId,
      records[2]?.messageId,
    ]);
    expect(await xpOf(deps, ann)).toBe(20);
    expect(await xpOf(deps, bob)).toBe(20);
  });
});

describe("dead endpoints: every AWS call ends before the invocation's deadline", () => {
  let blackHole: Server;
  let blackHoleUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers: the worst kind of dead endpoint.
    blackHole = createServer(() => {});
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    blackHoleUrl = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
  });

  afterAll(() => {
    blackHole.close();
  });

  it.for([
    ["refused", () => "http://127.0.0.1:1"],
    ["black-holed", () => blackHoleUrl],
  ] as Array<[string, () => string]>)(
    "DynamoDB %s: every message is failed, within the budget",
    async ([, endpoint], { env }) => {
      const deps = depsFor(env, {
        dynamo: createDynamoClient({
          ...env,
          AWS_REGION: "us-east-1",
          AWS_ENDPOINT_URL_DYNAMODB: endpoint(),
        }),
      });
      const started = Date.now();
      const { response, results } = await run(
        deps,
        [completed("u1", "a"), completed("u2", "a"), signup("u3")],
        lambdaContext(8000),
      );
      // The contract: the handler returns before Lambda's deadline (here 8 s after the start).
      expect(Date.now() - started).toBeLessThan(8000);
      expect(results.map((r) => [r.outcome, r.cause])).toEqual([
        ["failed", "transient"],
        ["failed", "transient"],
        ["failed", "transient"],
      ]);
      expect(response.batchItemFailures).toHaveLength(3);
    },
  );

  it("a black-holed DLQ: the poison message comes back failed within the budget", async ({ env }) => {
    const deps = depsFor(env, {
      sqs: createSqsClient({ ...env, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_SQS: blackHoleUrl }),
    });
    const started = Date.now();
    const record = sqsRecord("{poison");
    const { results, response } = await processBatch(deps, sqsEvent([record]), lambdaContext(4000));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "park_failed", parkCode: "invalid_json" });
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  });

  it("the SDK's request timeout is enforced: a silent socket fails the call", async () => {
    const sqs = createSqsClient(
      {
        AWS_REGION: "us-east-1",
        AWS_ENDPOINT_URL_SQS: blackHoleUrl,
        AWS_ACCESS_KEY_ID: "t",
        AWS_SECRET_ACCESS_KEY: "t",
      },
      { requestTimeoutMs: 300, maxAttempts: 1 },
    );
    const { ListQueuesCommand } = await import("@aws-sdk/client-sqs");
    await expect(sqs.send(new ListQueuesCommand({}))).rejects.toMatchObject({ name: "TimeoutError" });
    expect(sqs).toBeInstanceOf(SQSClient);
  });
});

describe("retries at the HTTP boundary (every attempt recorded, the SDK's own resends included)", () => {
  const dynamoFor = (env: Record<string, string>, maxAttempts?: number) =>
    createDynamoClient({ ...env, AWS_REGION: "us-east-1" }, maxAttempts ? { maxAttempts } : {});

  it("every retry of one message sends a byte-identical transaction: one token, one :now", async ({
    env,
  }) => {
    const dynamo = dynamoFor(env);
    const attempts = recordAttempts(dynamo, (_attempt, index) =>
      index < 3 ? { kind: "fail", error: index % 2 ? conflicted : throttled } : { kind: "pass" },
    );
    const deps = depsFor(env, { dynamo, retryPolicy: fastRetries });
    const user = newUser("token");
    const record = sqsRecord(completed(user, "a"));
    const { results } = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(results[0]).toMatchObject({ outcome: "awarded" });
    expect(attempts).toHaveLength(4);
    const bodies = new Set(attempts.map((a) => a.body));
    expect(bodies.size).toBe(1);
    const sent = JSON.parse(attempts[0]?.body ?? "{}");
    expect(sent.ClientRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.TransactItems[0].Put.ExpressionAttributeValues[":now"].N).toMatch(/^\d+$/);
    expect(await xpOf(deps, user)).toBe(20);

    // Processing the same message again (a redelivery) is a new attempt: a fresh token.
    await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(JSON.parse(attempts.at(-1)?.body ?? "{}").ClientRequestToken).not.toBe(sent.ClientRequestToken);
  });

  it("reports failed when throttling outlasts the retries, and writes nothing", async ({ env }) => {
    // Without the SDK's own resends (and their 500 ms throttling backoff), our four are exact.
    const dynamo = dynamoFor(env, 1);
    const attempts = recordAttempts(dynamo, () => ({ kind: "fail", error: throttled }));
    const deps = depsFor(env, { dynamo, retryPolicy: fastRetries });
    const user = newUser("throttled");
    const { results, response } = await run(deps, [completed(user, "a")]);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "transient", attempts: 4 });
    // Throttling is an answer: nothing was written, so nothing about a fate unknown.
    expect(results[0]?.detail).toBe(
      `DynamoDB TransactWriteItems on table ${deps.tableName} at ${env.AWS_ENDPOINT_URL_DYNAMODB}: throttled: ThrottlingException: Rate of requests exceeds the allowed throughput (injected)`,
    );
    expect(attempts).toHaveLength(4);
    expect(response.batchItemFailures).toHaveLength(1);
    expect(await xpOf(deps, user)).toBeUndefined();
  });

  it("a transaction that committed but whose answer was lost is reported awarded, and paid once", async ({
    env,
  }) => {
    // The SDK resending by itself would hide the lost answer from the worker; here it reaches it.
    const dynamo = dynamoFor(env, 1);
    const attempts = recordAttempts(dynamo, (_a, index) =>
      index === 0 ? { kind: "drop" } : { kind: "pass" },
    );
    const deps = depsFor(env, { dynamo, retryPolicy: fastRetries });
    const user = newUser("lost-answer");
    const { results } = await run(deps, [completed(user, "a")]);
    expect(attempts).toHaveLength(2);
    expect(results[0]).toMatchObject({ outcome: "awarded", attempts: 2 });
    expect(results[0]?.detail).toMatch(/answer was lost/);
    expect(await xpOf(deps, user)).toBe(20);
  });

  it("another message of a paid intent is a plain duplicate, even at the very instant the guard was written", async ({
    env,
  }) => {
    const pinned = Date.now();
    const deps = depsFor(env, { clock: () => pinned });
    const user = newUser("same-instant");
    const first = await processBatch(deps, sqsEvent([sqsRecord(completed(user, "a"))]), lambdaContext());
    expect(first.results[0]).toMatchObject({ outcome: "awarded", attempts: 1 });
    // Same intent, same clock reading, another message: its awardedAt matches, its message id does not.
    const other = await processBatch(deps, sqsEvent([sqsRecord(completed(user, "a"))]), lambdaContext());
    expect(other.results[0]).toEqual({
      messageId: expect.any(String),
      intentKey: intentKey([user, "a", "article.completed"]),
      outcome: "duplicate",
      attempts: 1,
    });
    expect(await xpOf(deps, user)).toBe(20);
  });

  it("when every answer is lost the message is failed; its redelivery is a duplicate that says so", async ({
    env,
  }) => {
    const dynamo = dynamoFor(env);
    let dropping = true;
    recordAttempts(dynamo, () => (dropping ? { kind: "drop" } : { kind: "pass" }));
    const deps = depsFor(env, { dynamo, retryPolicy: { ...fastRetries, maxAttempts: 2 } });
    const user = newUser("all-lost");
    const record = sqsRecord(completed(user, "a"));
    const first = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(first.results[0]).toMatchObject({ outcome: "failed", cause: "transient", attempts: 2 });
    expect(first.results[0]?.detail).toMatch(/fate is unknown/);
    dropping = false;
    const redelivery = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(redelivery.results[0]).toMatchObject({ outcome: "duplicate" });
    expect(redelivery.results[0]?.detail).toMatch(/earlier delivery of this same message/);
    expect(await xpOf(deps, user)).toBe(20);
  });
});

describe("the batch as a whole: its logs, its context, and what should never happen", () => {
  function capturedLogger() {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: "debug", base: null, timestamp: false },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    return { lines, logger };
  }

  it("logs a debug line per message, an error line for a configuration problem, and one info line per batch", async ({
    env,
  }) => {
    const { lines, logger } = capturedLogger();
    const deps = depsFor(env, { logger, dlqUrl: undefined });
    const user = newUser("logged");
    const records = [sqsRecord(completed(user, "a")), sqsRecord("{")];
    const { results, durationMs } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(lines).toEqual([
      { level: 20, ...results[0], msg: "message" },
      { level: 20, ...results[1], msg: "message" },
      { level: 30, size: 2, awarded: 1, duplicate: 0, parked: 0, failed: 1, durationMs, msg: "batch" },
    ]);

    const misconfigured = capturedLogger();
    const wrongTable = depsFor(env, { logger: misconfigured.logger, tableName: "no-such-table" });
    const failed = await processBatch(
      wrongTable,
      sqsEvent([sqsRecord(completed(user, "b"))]),
      lambdaContext(),
    );
    expect(failed.results[0]).toMatchObject({ cause: "configuration" });
    expect(misconfigured.lines[0]).toEqual({
      level: 50,
      ...failed.results[0],
      msg: "configuration problem: fix the deployment",
    });
  });

  it("without a context, or with one that has no clock, there is no deadline and everything is processed", async ({
    env,
  }) => {
    const deps = depsFor(env);
    const user = newUser("no-context");
    const without = await processBatch(deps, sqsEvent([sqsRecord(completed(user, "a"))]));
    const clockless = await processBatch(deps, sqsEvent([sqsRecord(completed(user, "b"))]), {});
    expect([without.counts, clockless.counts]).toEqual([
      { awarded: 1, duplicate: 0, parked: 0, failed: 0 },
      { awarded: 1, duplicate: 0, parked: 0, failed: 0 },
    ]);
  });

  it("a message is not started once the clock reads the deadline itself", async ({ env }) => {
    const start = Date.now();
    let reads = 0;
    // 8 s left, a quarter (2 s) of margin: the deadline is start + 6000; the check reads it exactly.
    const deps = depsFor(env, { clock: () => (reads++ === 0 ? start : start + 6000) });
    const { results } = await processBatch(deps, sqsEvent([sqsRecord(completed(newUser("edge"), "a"))]), {
      getRemainingTimeInMillis: () => 8000,
    });
    expect(results[0]).toEqual({
      messageId: expect.any(String),
      outcome: "failed",
      attempts: 0,
      cause: "deadline",
    });
  });

  it("an event without records is an empty batch", async ({ env }) => {
    const { response, results } = await processBatch(depsFor(env), {} as SQSEvent, lambdaContext());
    expect(results).toEqual([]);
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it("if the batch itself breaks (here: an impossible concurrency), every message is failed for redelivery", async ({
    env,
  }) => {
    const { lines, logger } = capturedLogger();
    const deps = depsFor(env, { logger, concurrency: 0 });
    const records = [sqsRecord(completed(newUser("broken-batch"), "a")), sqsRecord("{")];
    const { results, response } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(results).toEqual(
      records.map((r) => ({ messageId: r.messageId, outcome: "failed", attempts: 0, cause: "unexpected" })),
    );
    expect(response.batchItemFailures).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: "batch failed unexpectedly; every message will be redelivered",
      err: { type: "TypeError" },
    });
  });

  it("an error nothing classified (a bug) fails the message for redelivery, and says what it was", async ({
    env,
  }) => {
    const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    // A guard returned in a shape nothing can read.
    recordAttempts(dynamo, () => ({
      kind: "fail",
      error: () =>
        Object.assign(new Error("Transaction cancelled"), {
          name: "TransactionCanceledException",
          CancellationReasons: [
            { Code: "ConditionalCheckFailed", Item: { messageId: { NOPE: "x" } } },
            { Code: "None" },
          ],
          $metadata: {},
        }),
    }));
    const { results } = await run(depsFor(env, { dynamo }), [completed(newUser("bug"), "a")]);
    expect(results[0]).toMatchObject({
      outcome: "failed",
      cause: "unexpected",
      attempts: 0,
      detail: "Unsupported type passed: NOPE",
    });
  });
});
