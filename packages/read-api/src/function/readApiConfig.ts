import {
  dailyCapVariable,
  type Environment,
  functionLogLevel,
  functionLogVariables,
  type LogLevel,
  readConfig,
  requiredText,
  sdkVariables,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The read API's variables (README.md#configuration): nothing else is read. */
const readApiConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  ...sdkVariables,
  /** The worker's cap, from the same stage setting: it decides where `today` comes from. */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  ...functionLogVariables,
});

export type ReadApiConfig = z.output<typeof readApiConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readReadApiConfig(env: Environment): ReadApiConfig {
  const config = readConfig(readApiConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
