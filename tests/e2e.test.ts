import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { PARK_ATTRIBUTES } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { type Provisioned, startFaultProxy } from "@rewards/local";
import { compareXp, queueCounts, waitForDrain } from "@rewards/ops";
import { generateTraffic, sendTraffic } from "@rewards/scenario";
import {
  completed,
  drain,
  HANG_GUARD_MS,
  stackTest,
  startCli,
  startCountingPoller,
  waitFor,
} from "@rewards/testing";
import { createWorkerDeps, type WorkerDeps } from "@rewards/worker";
import pino from "pino";
import { describe, expect } from "vitest";

const logger = pino({ level: "silent" });
// Lambda's rule: the invocation timeout is shorter than the visibility timeout (2 s here,
// so redelivery shows within the test).
const it = stackTest({ visibilityTimeoutSeconds: 2 });
const INVOCATION_TIMEOUT_MS = 1500;
let sqs: SQSClient;
let dynamo: DynamoDBDocumentClient;
let env: Record<string, string>;
let queues: Provisioned;

it.beforeEach(({ env: testEnv, queues: testQueues }) => {
  env = testEnv;
  queues = testQueues;
  sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" }, { requestTimeoutMs: 10_000 });
  dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
});

function workerDeps(overrides: Partial<WorkerDeps> = {}): WorkerDeps {
  return { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {}, ...overrides };
}

/** The poller driving the real handler code until the queue drains. */
async function processUntilDrained(deps: WorkerDeps, timeoutMs = HANG_GUARD_MS) {
  const { poller, stats } = await startCountingPoller(deps, {
    sqs,
    queueUrl: queues.queueUrl,
    logger,
    waitTimeSeconds: 1,
    timeoutMs: INVOCATION_TIMEOUT_MS,
  });
  const drained = await waitForDrain(sqs, queues.queueUrl, timeoutMs);
  await poller.stop();
  return { stats, drained };
}

/**
 * The source messages the DLQ holds (read, and removed, at the end of a test): a worker whose
 * delete is lost after parking (a slow batch on a loaded machine) parks one message twice,
 * so the guarantee is one source per poison message, not one copy.
 */
async function parkedSources(): Promise<string[]> {
  const copies = await drain(sqs, queues.dlqUrl);
  return [
    ...new Set(copies.map((m) => m.MessageAttributes?.[PARK_ATTRIBUTES.sourceMessageId]?.StringValue ?? "")),
  ];
}

describe("end to end: publish → queue → poller → handler → table", () => {
  it(
    "pays exact totals under duplicates and poison",
    async () => {
      const traffic = generateTraffic({ events: 400, users: 25, duplicates: 0.3, invalid: 0.03, seed: 7 });
      const sent = await sendTraffic(traffic.messages, { sqs, queueUrl: queues.queueUrl });
      expect(sent).toEqual({ sent: 400, failed: [] });
      const { stats, drained } = await processUntilDrained(workerDeps());
      expect(drained).toBe(true);
      // The guarantee is the table's: every intent paid once, exact XP. The outcome counts are
      // not: on a loaded machine a batch slower than the visibility timeout is redelivered, and a
      // commit whose answer was lost counts `failed`, then `duplicate` when redelivered, never
      // `awarded` again.
      const totals = await compareXp(dynamo, queues.tableName, traffic.expectedXp);
      expect(totals.mismatches).toEqual([]);
      expect(totals.awardsTotal).toBe(traffic.uniqueIntents);
      expect(stats.outcomes.awarded).toBeLessThanOrEqual(traffic.uniqueIntents);
      expect(stats.outcomes.awarded + stats.outcomes.duplicate).toBeGreaterThanOrEqual(
        traffic.uniqueIntents + traffic.counts.duplicate,
      );
      expect(stats.outcomes.parked).toBeGreaterThanOrEqual(traffic.counts.invalid);
      expect(await parkedSources()).toHaveLength(traffic.counts.invalid);
    },
    HANG_GUARD_MS,
  );

  it("a transient failure is redelivered by SQS and then awarded once", { timeout: HANG_GUARD_MS }, async ({
    stack,
  }) => {
    // The first transaction is throttled (and the SDK does not resend it); no later one is.
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [{ operation: "TransactWriteItems", fault: "throttle", probability: 1, times: 1 }],
      seed: 1,
    });
    const deps = workerDeps({
      dynamo: createDynamoClient(
        { ...env, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint },
        { maxAttempts: 1 },
      ),
      retryPolicy: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxElapsedMs: 1 },
    });
    await sendTraffic(
      [{ kind: "unique", type: "article.completed", body: completed("redelivered-user", "a") }],
      {
        sqs,
        queueUrl: queues.queueUrl,
      },
    );
    const { stats } = await processUntilDrained(deps);
    // The injected failure is the first; a loaded machine can add a deadline failure.
    expect(stats.outcomes).toMatchObject({ awarded: 1, duplicate: 0, parked: 0 });
    expect(stats.outcomes.failed).toBeGreaterThanOrEqual(1);
    expect(stats.redelivered).toBe(stats.outcomes.failed);
    expect(await compareXp(dynamo, queues.tableName, { "redelivered-user": 20 })).toMatchObject({
      mismatches: [],
    });
    expect(proxy.counts().throttle).toBe(1);
    await proxy.stop();
  });

  it("without DLQ_URL a poison message reaches the DLQ through the redrive policy after 5 receives", async () => {
    await sendTraffic([{ kind: "invalid", body: "{poison" }], { sqs, queueUrl: queues.queueUrl });
    const { stats } = await processUntilDrained(workerDeps({ dlqUrl: undefined }));
    expect(stats.outcomes.failed).toBe(5);
    expect(stats.messages).toBe(5);
    const [redriven] = await drain(sqs, queues.dlqUrl);
    expect(redriven?.Body).toBe("{poison");
    expect(Object.keys(redriven?.MessageAttributes ?? {})).toEqual([]);
  });

  it(
    "a worker process running the bundle, stopped with SIGTERM halfway and restarted, ends with exact totals and an empty queue",
    async () => {
      const traffic = generateTraffic({ events: 1500, users: 40, duplicates: 0.25, invalid: 0.02, seed: 11 });
      await sendTraffic(traffic.messages, { sqs, queueUrl: queues.queueUrl });
      const cliEnv = { ...env, LOG_LEVEL: "warn" };
      // The worker runs the deployable bundle (npm test's pretest step builds it).
      const args = ["worker", "--wait", "1", "--timeout", "1", "--json", "--function", "artifact"];

      const first = startCli(args, cliEnv);
      await waitFor(async () => (await queueCounts(sqs, queues.queueUrl)).visible <= 1000, {
        timeoutMs: HANG_GUARD_MS,
      });
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      const firstStats = JSON.parse(first.output().stdout.trim().split("\n").at(-1) ?? "") as {
        messages: number;
      };
      expect(firstStats.messages).toBeGreaterThan(0);
      expect(firstStats.messages).toBeLessThan(1500);

      const second = startCli(args, cliEnv);
      expect(await waitForDrain(sqs, queues.queueUrl, HANG_GUARD_MS)).toBe(true);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);

      expect((await compareXp(dynamo, queues.tableName, traffic.expectedXp)).mismatches).toEqual([]);
      expect(await queueCounts(sqs, queues.queueUrl)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
      expect(await parkedSources()).toHaveLength(traffic.counts.invalid);
    },
    HANG_GUARD_MS,
  );
});
