import {
  DEFAULT_HISTORY_DAYS,
  type Environment,
  type LogLevel,
  logLevelSchema,
  readConfig,
  requiredText,
  sdkVariables,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The history writer's variables (§6): nothing else is read. */
const historyConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  LOG_LEVEL: logLevelSchema.optional(),
  /** Lambda's advanced logging controls set this; LOG_LEVEL wins when both are set. */
  AWS_LAMBDA_LOG_LEVEL: logLevelSchema.optional(),
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
  return { ...config, logLevel: config.LOG_LEVEL ?? config.AWS_LAMBDA_LOG_LEVEL ?? "info" };
}
