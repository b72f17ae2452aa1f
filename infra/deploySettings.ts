import { z } from "zod";
import { readConfig } from "../packages/core/src/config";
import { resources } from "../packages/core/src/resources";

/** The deploying shell's settings (the README's Configuration table, "deploy"). */
export const deploySettingsSchema = z.object({
  /** Concurrent invocations the event source mapping may run; AWS's minimum is 2. */
  REWARDS_MAXIMUM_CONCURRENCY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return resources.worker.maximumConcurrency;
      const n = Number(value);
      if (Number.isInteger(n) && n >= 2 && n <= 1000) return n;
      context.addIssue({ code: "custom", message: `must be a whole number from 2 to 1000, not ${value}` });
      return z.NEVER;
    }),
  /** Where the alarms are mailed (an SNS topic with an email subscription); unset: no topic. */
  REWARDS_ALARM_EMAIL: z.email({ error: "must be an email address" }).optional(),
});

export interface DeploySettings {
  maximumConcurrency: number;
  alarmEmail: string | undefined;
}

/** Throws ConfigError naming every bad setting, before anything is deployed. */
export function deploySettings(env: Record<string, string | undefined> = process.env): DeploySettings {
  const config = readConfig(deploySettingsSchema, env);
  return { maximumConcurrency: config.REWARDS_MAXIMUM_CONCURRENCY, alarmEmail: config.REWARDS_ALARM_EMAIL };
}
