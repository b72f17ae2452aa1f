import {
  DEFAULT_BOARD_SHARDS,
  DEFAULT_BOARD_WEEKS,
  DEFAULT_HISTORY_DAYS,
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

/** The history writer's variables (README's configuration): nothing else is read. */
const historyConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  ...functionLogVariables,
  /** The stage its metrics carry (their `stage` dimension). */
  REWARDS_STAGE: stageVariable(),
  /** Days a history item is kept; 0 keeps it forever. */
  REWARDS_HISTORY_DAYS: z.coerce
    .number()
    .int("must be a whole number")
    .min(0, "must be 0 (forever) or more")
    .default(DEFAULT_HISTORY_DAYS),
  /** Weeks a week's board is kept after the week ends. */
  REWARDS_BOARD_WEEKS: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .default(DEFAULT_BOARD_WEEKS),
  /** Shards of the board index a week's entries spread over. */
  REWARDS_BOARD_SHARDS: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(1000, "must be 1,000 or fewer")
    .default(DEFAULT_BOARD_SHARDS),
  REWARDS_RULES_REFRESH_SECONDS: rulesRefreshVariable(),
});

export type HistoryConfig = z.output<typeof historyConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readHistoryConfig(env: Environment): HistoryConfig {
  const config = readConfig(historyConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
