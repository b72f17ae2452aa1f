import {
  boardShardsVariable,
  DEFAULT_BOARD_SHARDS,
  dailyCapVariable,
  type Environment,
  functionLogLevel,
  functionLogVariables,
  type LogLevel,
  readConfig,
  requiredText,
  rulesRefreshVariable,
  sdkVariables,
  stageVariable,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The read API's variables (README.md#configuration): nothing else is read. */
const readApiConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  /** The worker's cap, from the same stage setting: it decides where `today` comes from. */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  /** The history writer's board shards, from the same stage setting: fewer would miss entries. */
  REWARDS_BOARD_SHARDS: boardShardsVariable().default(DEFAULT_BOARD_SHARDS),
  /** How often `GET /rules` and the profile's counts re-read the rules' CURRENT at most. */
  REWARDS_RULES_REFRESH_SECONDS: rulesRefreshVariable(),
  ...functionLogVariables,
  /** The stage its metrics carry (their `stage` dimension). */
  REWARDS_STAGE: stageVariable(),
});

export type ReadApiConfig = z.output<typeof readApiConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readReadApiConfig(env: Environment): ReadApiConfig {
  const config = readConfig(readApiConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
