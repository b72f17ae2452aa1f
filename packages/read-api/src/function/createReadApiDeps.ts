import { createDynamoBaseClient, createLogger } from "@rewards/core/aws";
import type { Environment } from "@rewards/core/deploy";
import { createReader } from "@rewards/reader";
import { readReadApiConfig } from "./readApiConfig";
import type { ReadApiDeps } from "./readApiDeps";

/** The read API's dependencies from its variables; throws ConfigError naming every bad one. */
export function createReadApiDeps(env: Environment = process.env): ReadApiDeps {
  const config = readReadApiConfig(env);
  return {
    reader: createReader({
      tableName: config.TABLE_NAME,
      client: createDynamoBaseClient(config),
      boardShards: config.REWARDS_BOARD_SHARDS,
      rulesRefreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
      ...(config.REWARDS_DAILY_XP_CAP === undefined ? {} : { dailyCap: config.REWARDS_DAILY_XP_CAP }),
    }),
    logger: createLogger({ level: config.logLevel, name: "rewards-read-api" }),
    stage: config.REWARDS_STAGE,
  };
}
