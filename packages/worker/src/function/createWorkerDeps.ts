import { createDynamoClient, createLogger, createRulesSource, createSqsClient } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { readWorkerConfig } from "./workerConfig";
import type { WorkerDeps } from "./workerDeps";

/** The worker's dependencies from its variables; throws ConfigError naming every bad one. */
export function createWorkerDeps(env: Environment = process.env): WorkerDeps {
  const config = readWorkerConfig(env);
  // A socket per group at once: fewer would queue transactions behind each other (one wave too many).
  const dynamo = createDynamoClient(config, { maxSockets: config.REWARDS_CONCURRENCY });
  const logger = createLogger({ level: config.logLevel, name: "rewards-worker" });
  return {
    tableName: config.TABLE_NAME,
    dlqUrl: config.DLQ_URL,
    concurrency: config.REWARDS_CONCURRENCY,
    dailyCap: config.REWARDS_DAILY_XP_CAP,
    stage: config.REWARDS_STAGE,
    rules: createRulesSource({
      dynamo,
      tableName: config.TABLE_NAME,
      refreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
      clock: Date.now,
      onRejected: (why) =>
        logger.error({ why }, "a version of the rules was not used; the last good one stays"),
    }),
    dynamo,
    sqs: createSqsClient(config),
    logger,
  };
}
