import {
  type Environment,
  functionLogLevel,
  functionLogVariables,
  type LogLevel,
  readConfig,
  requiredText,
  sdkVariables,
  stageVariable,
  urlVariable,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The announcer's variables (the README's Configuration table, "announcer"): nothing else is read. */
const announcerConfigSchema = z.object({
  /** The rewards EventBridge bus (name or ARN). */
  BUS_NAME: requiredText(),
  AWS_REGION: sdkVariables.AWS_REGION,
  /** The SDK's own variable: another EventBridge endpoint (the local bus). */
  AWS_ENDPOINT_URL_EVENTBRIDGE: urlVariable().optional(),
  AWS_ACCESS_KEY_ID: sdkVariables.AWS_ACCESS_KEY_ID,
  AWS_SECRET_ACCESS_KEY: sdkVariables.AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN: sdkVariables.AWS_SESSION_TOKEN,
  ...functionLogVariables,
  /** The stage its metrics carry (their `stage` dimension). */
  REWARDS_STAGE: stageVariable(),
});

export type AnnouncerConfig = z.output<typeof announcerConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readAnnouncerConfig(env: Environment): AnnouncerConfig {
  const config = readConfig(announcerConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
