import { createServer, type Server } from "node:net";
import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createDynamoClient, guardKey, intentKey, profileKey } from "@rewards/core";
import { type LocalStack, startLocalStack } from "@rewards/local";
import { createWorkerDeps, handler, processBatch, type WorkerDeps } from "@rewards/worker";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { completed, eventBody, signup } from "./support/events";
import { lambdaContext, sqsEvent, sqsRecord } from "./support/lambdaEvents";
import { drain } from "./support/queues";
import { guardOf, profileOf } from "./support/table";

let stack: LocalStack;
let deps: WorkerDeps;
let doc: DynamoDBDocumentClient;
let metricLines: string[] = [];
let userSeq = 0;
/** A fresh user per test keeps tests independent on one shared stack. */
const newUser = (label: string) => `${label}-${++userSeq}`;

beforeAll(async () => {
  stack = await startLocalStack();
  deps = {
    ...createWorkerDeps({ ...stack.env, LOG_LEVEL: "silent" }),
    emitMetrics: (line) => metricLines.push(line),
  };
  doc = deps.dynamo;
});

afterEach(async () => {
  metricLines = [];
  await drain(deps.sqs, stack.resources.dlqUrl);
});

afterAll(async () => {
  await stack?.stop();
});

const run = (bodies: string[], context = lambdaContext(), workerDeps = deps) =>
  processBatch(workerDeps, sqsEvent(bodies.map((body) => sqsRecord(body))), context);
const xpOf = async (userId: string) => (await profileOf(doc, stack.resources.tableName, userId))?.xp;

describe("the batch worker against the local stack", () => {
  it("ends every message in one of the four outcomes and reports only failed ones", async () => {
    const user = newUser("mixed");
    const records = [
      sqsRecord(completed(user, "a")),
      sqsRecord(completed(user, "a")), // same intent, other emission: duplicate
      sqsRecord(signup(user)),
      sqsRecord("{not json"),
    ];
    const offline = { ...deps, dlqUrl: undefined };
    const { response, results, counts } = await processBatch(offline, sqsEvent(records), lambdaContext());
    expect(results.map((r) => [r.messageId, r.outcome])).toEqual([
      [records[0]?.messageId, "awarded"],
      [records[1]?.messageId, "duplicate"],
      [records[2]?.messageId, "awarded"],
      [records[3]?.messageId, "failed"],
    ]);
    expect(counts).toEqual({ awarded: 2, duplicate: 1, parked: 0, failed: 1 });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: records[3]?.messageId }] });
    expect(await xpOf(user)).toBe(120);
  });

  it("pays one intent once across batches, whatever the message and event ids", async () => {
    const user = newUser("across");
    const first = await run([completed(user, "idempotent-writes")]);
    const second = await run([completed(user, "idempotent-writes"), completed(user, "idempotent-writes")]);
    expect(first.counts).toMatchObject({ awarded: 1, duplicate: 0 });
    expect(second.counts).toMatchObject({ awarded: 0, duplicate: 2 });
    const profile = await profileOf(doc, stack.resources.tableName, user);
    expect(profile).toEqual({ ...profileKey(user), xp: 20, awards: 1, updatedAt: expect.any(String) });
    const key = intentKey([user, "idempotent-writes", "article.completed"]);
    const guard = await guardOf(doc, stack.resources.tableName, key);
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
    });
    expect(first.results[0]).toMatchObject({ outcome: "awarded", intentKey: key, attempts: 1 });
  });

  it("50 concurrent invocations of one intent pay exactly 20 XP and fail nothing", async () => {
    const user = newUser("race");
    const batches = await Promise.all(Array.from({ length: 50 }, () => run([completed(user, "hot")])));
    const outcomes = batches.flatMap((b) => b.results.map((r) => r.outcome));
    expect(outcomes.filter((o) => o === "awarded")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(49);
    expect(batches.flatMap((b) => b.response.batchItemFailures)).toEqual([]);
    expect(await xpOf(user)).toBe(20);
  });

  it("an expired guard still in the table is awarded again; a signup guard never expires", async () => {
    const user = newUser("ttl");
    const key = intentKey([user, "old", "article.completed"]);
    await doc.send(
      new PutCommand({
        TableName: stack.resources.tableName,
        Item: {
          ...guardKey(key),
          userId: user,
          type: "article.completed",
          amount: 20,
          expiresAt: Math.floor(Date.now() / 1000) - 60,
        },
      }),
    );
    expect((await run([completed(user, "old")])).counts.awarded).toBe(1);
    expect(await xpOf(user)).toBe(20);

    expect((await run([signup(user)])).counts.awarded).toBe(1);
    const signupGuard = await guardOf(doc, stack.resources.tableName, intentKey([user, "signup.completed"]));
    expect(signupGuard).toBeDefined();
    expect(signupGuard?.expiresAt).toBeUndefined();
    const inTenYears = { ...deps, now: () => new Date(Date.now() + 10 * 365 * 86_400_000) };
    expect((await run([signup(user)], lambdaContext(), inTenYears)).counts.duplicate).toBe(1);
    expect(await xpOf(user)).toBe(120);
  });

  it("parks poison messages in the DLQ with the body unchanged and the rewards.* attributes", async () => {
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
    const parked = await drain(deps.sqs, stack.resources.dlqUrl);
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
      "rewards.parkedAt",
      "rewards.reason",
      "rewards.sourceMessageId",
      "specversion",
      "type",
    ]);
    expect(liked.type?.StringValue).toBe("article.liked");
    expect([...(liked.blob?.BinaryValue ?? [])]).toEqual([1, 2, 3]);
  });

  it("without DLQ_URL, poison messages are failed so the redrive policy moves them", async () => {
    const record = sqsRecord("{not json");
    const { response, results } = await processBatch(
      { ...deps, dlqUrl: undefined },
      sqsEvent([record]),
      lambdaContext(),
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "park_failed", parkCode: "invalid_json" });
  });

  it("a user whose xp is corrupted is parked as rejected; the rest of the batch is unaffected", async () => {
    const broken = newUser("corrupt");
    const fine = newUser("fine");
    await doc.send(
      new UpdateCommand({
        TableName: stack.resources.tableName,
        Key: profileKey(broken),
        UpdateExpression: "SET xp = :text",
        ExpressionAttributeValues: { ":text": "twenty" },
      }),
    );
    const { results, response } = await run([completed(broken, "x"), completed(fine, "x")]);
    expect(response.batchItemFailures).toEqual([]);
    expect(results.map((r) => [r.outcome, r.parkCode])).toEqual([
      ["parked", "rejected"],
      ["awarded", undefined],
    ]);
    expect(await xpOf(fine)).toBe(20);
    expect(await xpOf(broken)).toBe("twenty");
    const [parked] = await drain(deps.sqs, stack.resources.dlqUrl);
    expect(parked?.MessageAttributes?.["rewards.error"]?.StringValue).toBe("rejected");
    expect(parked?.MessageAttributes?.["rewards.reason"]?.StringValue).toMatch(/Validation/);
    // The guard was rolled back with the update: a fixed profile can still be paid.
    expect(
      await guardOf(doc, stack.resources.tableName, intentKey([broken, "x", "article.completed"])),
    ).toBeUndefined();
  });

  it("starts nothing when the invocation is already inside its safety margin", async () => {
    const user = newUser("late");
    const { response, results } = await run(
      [completed(user, "a"), completed(user, "b")],
      lambdaContext(4000),
      {
        ...deps,
        safetyMarginMs: 5000,
      },
    );
    expect(results.map((r) => r.cause)).toEqual(["deadline", "deadline"]);
    expect(response.batchItemFailures).toHaveLength(2);
    expect(await xpOf(user)).toBeUndefined();
  });

  it("emits one EMF line per batch in the Rewards namespace", async () => {
    await run([completed(newUser("emf"), "a"), "{"], lambdaContext(), { ...deps, dlqUrl: undefined });
    expect(metricLines).toHaveLength(1);
    const metrics = JSON.parse(metricLines[0] as string);
    expect(metrics._aws.CloudWatchMetrics[0].Namespace).toBe("Rewards");
    expect(metrics).toMatchObject({ awarded: 1, duplicate: 0, parked: 0, failed: 1 });
    expect(metrics.batchDuration).toBeGreaterThanOrEqual(0);
  });

  it("the exported Lambda handler reads its configuration from the environment", async () => {
    const user = newUser("handler");
    const saved = { ...process.env };
    Object.assign(process.env, stack.env, { LOG_LEVEL: "silent" });
    try {
      const poison = sqsRecord("nope");
      const ok = sqsRecord(completed(user, "a"));
      const response = await handler(sqsEvent([ok, poison]), lambdaContext());
      expect(response).toEqual({ batchItemFailures: [] });
      expect(await xpOf(user)).toBe(20);
      delete process.env.DLQ_URL;
      const again = await handler(sqsEvent([sqsRecord("nope")]), lambdaContext());
      expect(again.batchItemFailures).toHaveLength(1);
    } finally {
      process.env = saved;
    }
    await drain(deps.sqs, stack.resources.dlqUrl);
  });
});

describe("FIFO sources", () => {
  it("after a failure, that message and every later one of its group are failed; other groups go on", async () => {
    const arn = "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo";
    const ann = newUser("fifo-ann");
    const bob = newUser("fifo-bob");
    const records = [
      sqsRecord(completed(ann, "a"), { groupId: "g1", queueArn: arn }),
      sqsRecord("{", { groupId: "g1", queueArn: arn }), // cannot be parked without a DLQ
      sqsRecord(completed(ann, "b"), { groupId: "g1", queueArn: arn }),
      sqsRecord(completed(bob, "a"), { groupId: "g2", queueArn: arn }),
    ];
    const { response, results } = await processBatch(
      { ...deps, dlqUrl: undefined },
      sqsEvent(records),
      lambdaContext(),
    );
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
    expect(await xpOf(ann)).toBe(20);
    expect(await xpOf(bob)).toBe(20);
  });
});

describe("DynamoDB unreachable", () => {
  let blackHole: Server;
  let port: number;

  beforeAll(async () => {
    // Accepts connections and never answers: the worst kind of dead endpoint.
    blackHole = createServer(() => {});
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    port = (blackHole.address() as { port: number }).port;
  });

  afterAll(() => {
    blackHole.close();
  });

  it.each([
    ["refused", () => "http://127.0.0.1:1"],
    ["black-holed", () => `http://127.0.0.1:${port}`],
  ])("%s: every message is failed and the handler returns within its deadline", async (_label, endpoint) => {
    const dead = {
      ...deps,
      dynamo: createDynamoClient({
        ...stack.env,
        AWS_REGION: "us-east-1",
        AWS_ENDPOINT_URL_DYNAMODB: endpoint(),
      }),
    };
    const started = Date.now();
    const { response, results } = await run(
      [completed("u1", "a"), completed("u2", "a"), signup("u3")],
      lambdaContext(8000),
      dead,
    );
    expect(Date.now() - started).toBeLessThan(8000);
    expect(results.map((r) => [r.outcome, r.cause])).toEqual([
      ["failed", "transient"],
      ["failed", "transient"],
      ["failed", "transient"],
    ]);
    expect(response.batchItemFailures).toHaveLength(3);
  });
});

describe("transient DynamoDB errors injected at the SDK client", () => {
  function injecting(errors: Array<() => Error>): WorkerDeps {
    const dynamo = createDynamoClient({ ...stack.env, AWS_REGION: "us-east-1" });
    const queue = [...errors];
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        const make = queue.shift();
        if (make) throw make();
        return next(args);
      },
      { step: "initialize", name: "injectFaults" },
    );
    return {
      ...deps,
      dynamo,
      retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 },
    };
  }
  const conflict = () =>
    Object.assign(new Error("Transaction cancelled"), {
      name: "TransactionCanceledException",
      CancellationReasons: [{ Code: "None" }, { Code: "TransactionConflict" }],
    });
  const throttled = () => Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" });

  it("retries a conflict and a throttle, then awards exactly once", async () => {
    const user = newUser("flaky");
    const { results } = await run([completed(user, "a")], lambdaContext(), injecting([conflict, throttled]));
    expect(results[0]).toMatchObject({ outcome: "awarded", attempts: 3 });
    expect(await xpOf(user)).toBe(20);
  });

  it("reports failed when throttling outlasts the retries, and writes nothing", async () => {
    const user = newUser("throttled");
    const { results, response } = await run(
      [completed(user, "a")],
      lambdaContext(),
      injecting(Array.from({ length: 10 }, () => throttled)),
    );
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "transient", attempts: 4 });
    expect(results[0]?.detail).toMatch(/^ThrottlingException/);
    expect(response.batchItemFailures).toHaveLength(1);
    expect(await xpOf(user)).toBeUndefined();
  });
});

describe("queue is untouched by the handler", () => {
  it("the handler never deletes or sends to the main queue (the event source does)", async () => {
    const { Attributes } = await (deps.sqs as SQSClient).send(
      new GetQueueAttributesCommand({
        QueueUrl: stack.resources.queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages"],
      }),
    );
    expect(Attributes?.ApproximateNumberOfMessages).toBe("0");
  });
});
