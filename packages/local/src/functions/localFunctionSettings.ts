import {
  boardShardsVariable,
  boardWeeksVariable,
  DEFAULT_BOARD_SHARDS,
  DEFAULT_BOARD_WEEKS,
  DEFAULT_HISTORY_DAYS,
  logLevelSchema,
  readConfig,
  resources,
  rulesRefreshVariable,
  type ToolConfig,
} from "@rewards/core/deploy";
import { z } from "zod";

/**
 * The settings a deployed function gets from its stage (or, for REWARDS_CONCURRENCY and
 * LOG_LEVEL, the deployment's defaults) that a local function takes from the shell instead:
 * each read as the function reads it, with the function's default. REWARDS_DAILY_XP_CAP is
 * not here: `rewards worker` and `rewards dev` also take it as `--daily-cap`.
 */
const localFunctionSettingsSchema = z.object({
  /** The worker's user groups at once (its own schema: 1–1000). */
  REWARDS_CONCURRENCY: z.coerce
    .number({ error: "must be a whole number from 1 to 1000" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(resources.worker.concurrency),
  /** The history writer's days an item is kept; 0 keeps it forever. */
  REWARDS_HISTORY_DAYS: z.coerce
    .number({ error: "must be a whole number of days, 0 (forever) or more" })
    .int("must be a whole number")
    .min(0, "must be 0 (forever) or more")
    .default(DEFAULT_HISTORY_DAYS),
  /** The history writer's and the read API's: one shard count for all. */
  REWARDS_BOARD_SHARDS: boardShardsVariable().default(DEFAULT_BOARD_SHARDS),
  REWARDS_BOARD_WEEKS: boardWeeksVariable().default(DEFAULT_BOARD_WEEKS),
  /** Every function that reads the rules: how often it re-reads `CURRENT` at most. */
  REWARDS_RULES_REFRESH_SECONDS: rulesRefreshVariable(),
  /** Unset: every function's own default (info), and nothing printed for the other shell. */
  LOG_LEVEL: logLevelSchema.optional(),
});

/** The local functions' stage settings, as the variables they get (and another shell exports). */
export interface LocalFunctionSettings {
  REWARDS_CONCURRENCY: string;
  REWARDS_HISTORY_DAYS: string;
  REWARDS_BOARD_SHARDS: string;
  REWARDS_BOARD_WEEKS: string;
  REWARDS_RULES_REFRESH_SECONDS: string;
  LOG_LEVEL?: string;
}

/**
 * The stage settings the local functions run with, from the shell's configuration, defaults
 * filled in and each value as the function reads it (`WARNING` is `warn`, ` 7` is `7`): what
 * `rewards dev` hands its functions and prints in its env block, so a shell that exports the
 * block reads what the functions wrote (`rewards board` the same shards). A bad one is a
 * ConfigError naming every bad variable, before anything starts.
 */
export function localFunctionSettings(config: ToolConfig): LocalFunctionSettings {
  const env = Object.fromEntries(
    Object.keys(localFunctionSettingsSchema.shape).map((name) => {
      const value = config[name as keyof ToolConfig];
      return [name, value === undefined ? undefined : String(value)];
    }),
  );
  const settings = readConfig(localFunctionSettingsSchema, env);
  return {
    REWARDS_CONCURRENCY: String(settings.REWARDS_CONCURRENCY),
    REWARDS_HISTORY_DAYS: String(settings.REWARDS_HISTORY_DAYS),
    REWARDS_BOARD_SHARDS: String(settings.REWARDS_BOARD_SHARDS),
    REWARDS_BOARD_WEEKS: String(settings.REWARDS_BOARD_WEEKS),
    REWARDS_RULES_REFRESH_SECONDS: String(settings.REWARDS_RULES_REFRESH_SECONDS),
    ...(settings.LOG_LEVEL === undefined ? {} : { LOG_LEVEL: settings.LOG_LEVEL }),
  };
}
