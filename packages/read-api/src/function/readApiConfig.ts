import {
  dailyCapVariable,
  type Environment,
  type LogLevel,
  logLevelSchema,
  readConfig,
  requiredText,
  sdkVariables,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The read API's variables (§6): nothing else is read. */
const readApiConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  /** The worker's cap, from the same stage setting: it decides where `today` comes from. */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  LOG_LEVEL: logLevelSchema.optional(),
  /** Lambda's advanced logging controls set this; LOG_LEVEL wins when both are set. */
  AWS_LAMBDA_LOG_LEVEL: logLevelSchema.optional(),
});

export type ReadApiConfig = z.output<typeof readApiConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readReadApiConfig(env: Environment): ReadApiConfig {
  const config = readConfig(readApiConfigSchema, env);
  return { ...config, logLevel: config.LOG_LEVEL ?? config.AWS_LAMBDA_LOG_LEVEL ?? "info" };
}
