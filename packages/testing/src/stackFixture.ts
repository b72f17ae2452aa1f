import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import {
  type LocalStack,
  type LocalStackOptions,
  type Provisioned,
  type ProvisionOptions,
  provision,
  startLocalStack,
} from "@rewards/local";
import { test } from "vitest";

export interface StackFixtures {
  /** Provisioning options for this test's queues (override with `it.override({ queueOptions })`). */
  queueOptions: ProvisionOptions;
  /** A queue pair of this test's own on the file's stack (same table). */
  queues: Provisioned;
  /** The stack's env pointing at `queues`: what a process under test is given. */
  env: Record<string, string>;
}

/**
 * One local stack per test file, and a fresh queue and DLQ per test: no test can receive
 * another's messages (a long poll a stopped poller left behind, say), so nothing waits for
 * one to expire between tests.
 */
export function stackTest(options: LocalStackOptions = {}) {
  return test.extend<StackFixtures & { stack: LocalStack }>({
    stack: [
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads fixture dependencies from the pattern
      async ({}, use) => {
        const stack = await startLocalStack(options);
        await use(stack);
        await stack.stop();
      },
      { scope: "file" },
    ],
    queueOptions: [{}, { injected: false }],
    queues: async ({ stack, queueOptions }, use) => {
      const credentials = { accessKeyId: "test", secretAccessKey: "test" };
      const region = stack.env.AWS_REGION;
      const sqs = new SQSClient({ region, endpoint: stack.endpoints.sqs, credentials });
      const dynamo = new DynamoDBClient({ region, endpoint: stack.endpoints.dynamodb, credentials });
      const name = `t-${randomUUID().slice(0, 8)}`;
      try {
        await use(
          await provision(sqs, dynamo, {
            ...options,
            ...queueOptions,
            tableName: stack.resources.tableName,
            queueName: name,
            dlqName: `${name}-dlq`,
          }),
        );
      } finally {
        sqs.destroy();
        dynamo.destroy();
      }
    },
    env: async ({ stack, queues }, use) => {
      await use({ ...stack.env, QUEUE_URL: queues.queueUrl, DLQ_URL: queues.dlqUrl });
    },
  });
}
