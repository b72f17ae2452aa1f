import { execFile } from "node:child_process";
import { copyFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import {
  type BatchSummary,
  createFunctionRuntime,
  lambdaEnvironment,
  startFaultProxy,
  startPoller,
} from "@rewards/local";
import { queueCounts } from "@rewards/ops";
import {
  childrenOf,
  completed,
  drain,
  profileOf,
  sqsEvent,
  sqsRecord,
  stackTest,
  waitFor,
} from "@rewards/testing";
import type { SQSBatchResponse } from "aws-lambda";
import { pino } from "pino";
import { describe, expect } from "vitest";

// The bundle `npm run build:function` wrote (npm test's pretest step builds it).
const ARTIFACT = fileURLToPath(new URL("../packages/worker/dist/handler.mjs", import.meta.url));
const it = stackTest({ visibilityTimeoutSeconds: 3 });

/** The function's environment as a deployment and Lambda's runtime set it, pointed at the local stack. */
function functionEnv(env: Record<string, string>, overrides: Record<string, string | undefined> = {}) {
  const all: Record<string, string | undefined> = {
    ...lambdaEnvironment({
      functionName: "artifact-test",
      memoryMb: 512,
      region: "us-east-1",
      handler: "handler.handler",
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    }),
    TABLE_NAME: env.TABLE_NAME,
    DLQ_URL: env.DLQ_URL,
    LOG_LEVEL: "silent",
    AWS_ENDPOINT_URL_SQS: env.AWS_ENDPOINT_URL_SQS,
    AWS_ENDPOINT_URL_DYNAMODB: env.AWS_ENDPOINT_URL_DYNAMODB,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

/** The bundle in a Lambda-like runtime (2 s timeout) behind the local event source, as `rewards worker --function artifact` runs it. */
async function runArtifact(env: Record<string, string>, environment: Record<string, string>) {
  const runtime = createFunctionRuntime({
    entry: ARTIFACT,
    environment,
    functionName: "artifact-test",
    memoryMb: 512,
    timeoutMs: 2000,
    onStdout: () => {},
    onStderr: () => {},
  });
  const sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" });
  const batches: BatchSummary[] = [];
  const poller = await startPoller({
    sqs,
    queueUrl: env.QUEUE_URL as string,
    handler: (event) => runtime.invoke(event) as Promise<SQSBatchResponse>,
    handlerEnforcesTimeout: true,
    logger: pino({ level: "silent" }),
    waitTimeSeconds: 1,
    timeoutMs: 2000,
    onBatch: (summary) => batches.push(summary),
  });
  return { runtime, sqs, batches, poller };
}

describe("the deployable bundle (packages/worker/dist/handler.mjs)", () => {
  it("copied alone into an empty directory and imported by plain node, awards, acknowledges a duplicate and parks poison", async ({
    env,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), "artifact-"));
    await copyFile(ARTIFACT, join(dir, "handler.mjs"));
    // No node_modules anywhere up from here: the bundle must carry everything it imports.
    await writeFile(
      join(dir, "invoke.mjs"),
      `import { handler } from "./handler.mjs";
const event = JSON.parse(process.argv[2]);
const deadline = Date.now() + 10000;
const response = await handler(event, { getRemainingTimeInMillis: () => deadline - Date.now(), functionName: "t" });
process.stdout.write(JSON.stringify(response));
process.exit(0);
`,
    );
    const user = `artifact-${Date.now()}`;
    const records = [sqsRecord(completed(user, "a")), sqsRecord(completed(user, "a")), sqsRecord("{poison")];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["invoke.mjs", JSON.stringify(sqsEvent(records))],
      {
        cwd: dir,
        env: functionEnv(env),
      },
    );
    // stdout: the function's EMF metrics line, as on Lambda, then the response.
    const [metrics, response] = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(response).toEqual({ batchItemFailures: [] });
    expect(metrics).toMatchObject({ awarded: 1, duplicate: 1, parked: 1, failed: 0 });
    const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    expect(await profileOf(dynamo, env.TABLE_NAME as string, user)).toMatchObject({ xp: 20, awards: 1 });
    const parked = await drain(createSqsClient({ ...env, AWS_REGION: "us-east-1" }), env.DLQ_URL as string);
    expect(parked.map((m) => [m.Body, m.MessageAttributes?.["rewards.error"]?.StringValue])).toEqual([
      ["{poison", "invalid_json"],
    ]);
  });

  it("an invocation that runs past its timeout is killed with its process; the batch comes back and is paid once", async ({
    env,
    stack,
  }) => {
    // DynamoDB answers slowly, and the function's process is frozen mid-call (a hung sandbox):
    // only the runtime's timer can end the invocation.
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [{ operation: "TransactWriteItems", fault: "latency", probability: 1, fixedMs: 400, times: 1 }],
      seed: 1,
    });
    const { runtime, sqs, batches, poller } = await runArtifact(
      env,
      functionEnv(env, { AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint }),
    );
    try {
      const user = `killed-${Date.now()}`;
      await sqs.send(new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: completed(user, "a") }));
      // Freeze the function while its transaction is on the wire.
      expect(await waitFor(() => proxy.counts().latency === 1, { timeoutMs: 10_000, intervalMs: 5 })).toBe(
        true,
      );
      const [environment] = childrenOf(process.pid, "bootstrap.mjs");
      const pid = Number(environment?.split(/\s+/)[0]);
      process.kill(pid, "SIGSTOP");
      expect(await waitFor(() => batches.length >= 1, { timeoutMs: 10_000 })).toBe(true);
      expect(batches[0]?.wholeBatchFailure).toBe(
        "FunctionError: Sandbox.Timedout: Task timed out after 2.00 seconds",
      );
      // Redelivered after the visibility timeout, to a fresh environment, and paid once.
      expect(
        await waitFor(
          async () =>
            (await queueCounts(sqs, env.QUEUE_URL as string)).visible +
              (await queueCounts(sqs, env.QUEUE_URL as string)).inFlight ===
            0,
          {
            timeoutMs: 20_000,
            intervalMs: 200,
          },
        ),
      ).toBe(true);
      expect(batches.at(-1)?.records[0]?.attributes.ApproximateReceiveCount).toBe("2");
      expect(runtime.stats().coldStarts).toBe(2);
      const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
      expect(await profileOf(dynamo, env.TABLE_NAME as string, user)).toMatchObject({ xp: 20, awards: 1 });
    } finally {
      await poller.stop();
      await runtime.stop();
      await proxy.stop();
    }
  }, 40_000);

  it("a bundle that cannot start (TABLE_NAME missing) is Runtime.InitError, and its messages stay in the queue", async ({
    env,
  }) => {
    const { runtime, sqs, batches, poller } = await runArtifact(
      env,
      functionEnv(env, { TABLE_NAME: undefined }),
    );
    try {
      await sqs.send(
        new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: completed("init", "a") }),
      );
      expect(await waitFor(() => batches.length >= 1, { timeoutMs: 15_000 })).toBe(true);
      expect(batches[0]).toMatchObject({
        acknowledged: 0,
        failed: 1,
        wholeBatchFailure:
          "FunctionError: Runtime.InitError: ConfigError: invalid configuration: TABLE_NAME is required",
      });
    } finally {
      await poller.stop();
      await runtime.stop();
    }
    // Nothing was acknowledged: the message is still there (in flight until its visibility timeout).
    const counts = await queueCounts(sqs, env.QUEUE_URL as string);
    expect(counts.visible + counts.inFlight).toBe(1);
  });
});
