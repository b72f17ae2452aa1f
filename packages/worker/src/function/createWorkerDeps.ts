import { createDynamoClient, createLogger, createSqsClient } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { readWorkerConfig } from "./workerConfig";
import type { WorkerDeps } from "./workerDeps";

/** The worker's dependencies from its variables; throws ConfigError naming every bad one. */
export function createWorkerDeps(env: Environment = process.env): WorkerDeps {
  const config = readWorkerConfig(env);
  return {
    tableName: config.TABLE_NAME,
    dlqUrl: config.DLQ_URL,
    concurrency: config.REWARDS_CONCURRENCY,
    dailyCap: config.REWARDS_DAILY_XP_CAP,
    stage: config.REWARDS_STAGE,
    // A socket per group at once: fewer would queue transactions behind each other (one wave too many).
    dynamo: createDynamoClient(config, { maxSockets: config.REWARDS_CONCURRENCY }),
    sqs: createSqsClient(config),
    logger: createLogger({ level: config.logLevel, name: "rewards-worker" }),
  };
}
