import {
  DEFAULT_HISTORY_DAYS,
  type Environment,
  functionLogLevel,
  functionLogVariables,
  type LogLevel,
  readConfig,
  requiredText,
  sdkVariables,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The history writer's variables (README's configuration): nothing else is read. */
const historyConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  ...functionLogVariables,
  /** Days a history item is kept; 0 keeps it forever. */
  REWARDS_HISTORY_DAYS: z.coerce
    .number()
    .int("must be a whole number")
    .min(0, "must be 0 (forever) or more")
    .default(DEFAULT_HISTORY_DAYS),
});

export type HistoryConfig = z.output<typeof historyConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readHistoryConfig(env: Environment): HistoryConfig {
  const config = readConfig(historyConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
