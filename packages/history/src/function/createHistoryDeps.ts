import { createDynamoClient, createLogger, createRulesSource } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { resources } from "@rewards/core/deploy";
import { readHistoryConfig } from "./historyConfig";
import type { HistoryDeps } from "./historyDeps";

/** The history writer's dependencies from its variables; throws ConfigError naming every bad one. */
export function createHistoryDeps(env: Environment = process.env): HistoryDeps {
  const config = readHistoryConfig(env);
  const dynamo = createDynamoClient(config, { maxSockets: resources.history.concurrency });
  const logger = createLogger({ level: config.logLevel, name: "rewards-history" });
  return {
    tableName: config.TABLE_NAME,
    stage: config.REWARDS_STAGE,
    historyDays: config.REWARDS_HISTORY_DAYS,
    boardWeeks: config.REWARDS_BOARD_WEEKS,
    boardShards: config.REWARDS_BOARD_SHARDS,
    concurrency: resources.history.concurrency,
    rules: createRulesSource({
      dynamo,
      tableName: config.TABLE_NAME,
      refreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
      clock: Date.now,
      onRejected: (why) =>
        logger.error({ why }, "a version of the rules was not used; the last good one stays"),
    }),
    dynamo,
    logger,
  };
}
