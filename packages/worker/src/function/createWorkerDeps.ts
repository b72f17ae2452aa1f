import { createDynamoClient, createLogger, createSqsClient, type Environment } from "@rewards/core";
import { readWorkerConfig } from "./workerConfig";
import type { WorkerDeps } from "./workerDeps";

/** The worker's dependencies from its variables; throws ConfigError naming every bad one. */
export function createWorkerDeps(env: Environment = process.env): WorkerDeps {
  const config = readWorkerConfig(env);
  return {
    tableName: config.TABLE_NAME,
    dlqUrl: config.DLQ_URL,
    concurrency: config.REWARDS_CONCURRENCY,
    dynamo: createDynamoClient(config),
    sqs: createSqsClient(config),
    logger: createLogger({ level: config.logLevel, name: "rewards-worker" }),
  };
}
