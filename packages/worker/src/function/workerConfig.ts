import {
  dailyCapVariable,
  type Environment,
  functionLogLevel,
  functionLogVariables,
  type LogLevel,
  readConfig,
  requiredText,
  resources,
  rulesRefreshVariable,
  sdkVariables,
  stageVariable,
  urlVariable,
} from "@rewards/core/deploy";
import { z } from "zod";

/** The function's variables (the README's Configuration table, "worker"): nothing else is read. */
const workerConfigSchema = z.object({
  TABLE_NAME: requiredText(),
  DLQ_URL: urlVariable().optional(),
  ...sdkVariables,
  ...functionLogVariables,
  REWARDS_CONCURRENCY: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(resources.worker.concurrency),
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  REWARDS_RULES_REFRESH_SECONDS: rulesRefreshVariable(),
  /** The stage its metrics carry (their `stage` dimension). */
  REWARDS_STAGE: stageVariable(),
});

export type WorkerConfig = z.output<typeof workerConfigSchema> & { logLevel: LogLevel };

/** Throws ConfigError naming every bad variable. */
export function readWorkerConfig(env: Environment): WorkerConfig {
  const config = readConfig(workerConfigSchema, env);
  return { ...config, logLevel: functionLogLevel(config) };
}
