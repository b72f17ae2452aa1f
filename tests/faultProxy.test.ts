import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { createDynamoClient } from "@rewards/core/aws";
import { type FaultRule, startFaultProxy } from "@rewards/local";
import { completed, lambdaContext, profileOf, sqsEvent, sqsRecord, stackTest } from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import { describe, expect } from "vitest";

const it = stackTest();
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

async function proxied(target: string, rules: FaultRule[], seed = 1) {
  const proxy = await startFaultProxy({ target, rules, seed });
  return proxy;
}

describe("the fault proxy, as a real SDK client sees it", () => {
  it.for([
    ["throttle", { name: "ProvisionedThroughputExceededException" }],
    ["http500", { name: "InternalServerError", $metadata: { httpStatusCode: 500 } }],
    ["reset", { code: "ECONNRESET" }],
  ] as const)("%s on DynamoDB", async ([fault, expected], { stack }) => {
    const proxy = await proxied(stack.endpoints.dynamodb, [
      { operation: "ListTables", fault, probability: 1 },
    ]);
    const client = new DynamoDBClient({
      region: "us-east-1",
      endpoint: proxy.endpoint,
      credentials,
      maxAttempts: 1,
    });
    await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject(expected);
    expect(proxy.counts()[fault]).toBe(1);
    expect(proxy.counts().forwarded).toBe(0);
    await proxy.stop();
  });

  it("throttling on SQS is a ThrottlingException; other operations pass untouched", async ({
    stack,
    queues,
  }) => {
    const proxy = await proxied(stack.endpoints.sqs, [
      { operation: "SendMessage", fault: "throttle", probability: 1 },
    ]);
    const sqs = new SQSClient({ region: "us-east-1", endpoint: proxy.endpoint, credentials, maxAttempts: 1 });
    const { SendMessageCommand } = await import("@aws-sdk/client-sqs");
    await expect(
      sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: "x" })),
    ).rejects.toMatchObject({ name: "ThrottlingException" });
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queues.queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages"],
      }),
    );
    expect(attributes.Attributes?.ApproximateNumberOfMessages).toBe("0");
    expect(proxy.counts()).toMatchObject({ throttle: 1, forwarded: 1 });
    await proxy.stop();
  });

  it("a black hole never answers: the client's own timeout ends the call", async ({ stack }) => {
    const proxy = await proxied(stack.endpoints.dynamodb, [
      { operation: "*", fault: "blackHole", probability: 1 },
    ]);
    const client = createDynamoClient(
      {
        AWS_REGION: "us-east-1",
        AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
        AWS_ACCESS_KEY_ID: "t",
        AWS_SECRET_ACCESS_KEY: "t",
      },
      { requestTimeoutMs: 300, maxAttempts: 1 },
    );
    await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ name: "TimeoutError" });
    expect(proxy.counts().blackHole).toBe(1);
    await proxy.stop();
  });

  it("the same seed injects the same faults in the same places; `times` caps a rule", async ({ stack }) => {
    const rules: FaultRule[] = [
      { operation: "ListTables", fault: "throttle", probability: 0.5 },
      { operation: "ListTables", fault: "http500", probability: 1, times: 2 },
    ];
    const sequence = async (seed: number) => {
      const proxy = await proxied(stack.endpoints.dynamodb, rules, seed);
      const client = new DynamoDBClient({
        region: "us-east-1",
        endpoint: proxy.endpoint,
        credentials,
        maxAttempts: 1,
      });
      const outcomes: string[] = [];
      for (let i = 0; i < 12; i++) {
        outcomes.push(
          await client.send(new ListTablesCommand({})).then(
            () => "ok",
            (e: Error) => e.name,
          ),
        );
      }
      await proxy.stop();
      return outcomes;
    };
    const first = await sequence(42);
    expect(await sequence(42)).toEqual(first);
    expect(first.filter((o) => o === "InternalServerError")).toHaveLength(2);
    expect(first.filter((o) => o === "ProvisionedThroughputExceededException").length).toBeGreaterThan(0);
    expect(first.filter((o) => o === "ok").length).toBeGreaterThan(0);
  });
});

describe("the worker through the proxy: a transaction that commits while its answer is lost", () => {
  it("retried in-process with its token, it is reported awarded (as AWS answers), and paid once", async ({
    stack,
    env,
  }) => {
    const proxy = await proxied(stack.endpoints.dynamodb, [
      { operation: "TransactWriteItems", fault: "commitThenDrop", probability: 1, times: 1 },
    ]);
    const deps = {
      ...createWorkerDeps({ ...env, LOG_LEVEL: "silent", AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint }),
      // Version 0, no rules read: the proxy counts the award's own calls.
      rules: undefined,
      emitMetrics: () => {},
      retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 },
    };
    const { results } = await processBatch(
      deps,
      sqsEvent([sqsRecord(completed("lost-answer", "a"))]),
      lambdaContext(),
    );
    expect(proxy.counts()).toMatchObject({ commitThenDrop: 1, forwarded: 2 });
    expect(results[0]).toMatchObject({ outcome: "awarded" });
    const direct = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    expect((await profileOf(direct, env.TABLE_NAME as string, "lost-answer"))?.xp).toBe(20);
    await proxy.stop();
  });
});
