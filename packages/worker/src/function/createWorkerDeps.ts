import { createDynamoClient, createLogger, createSqsClient, loadConfig } from "@rewards/core";
import type { WorkerDeps } from "./workerDeps";

/** The worker's dependencies from the configuration variables; throws ConfigError naming every bad one. */
export function createWorkerDeps(env: NodeJS.ProcessEnv = process.env): WorkerDeps {
  const config = loadConfig(env, ["TABLE_NAME"]);
  return {
    tableName: config.TABLE_NAME,
    dlqUrl: config.DLQ_URL,
    concurrency: config.REWARDS_CONCURRENCY,
    dynamo: createDynamoClient(config),
    sqs: createSqsClient(config),
    logger: createLogger({ level: config.LOG_LEVEL, name: "rewards-worker" }),
  };
}
