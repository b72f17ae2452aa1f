import { readConfig, resources } from "@rewards/core/deploy";
import { z } from "zod";

/** A comma-separated list, each item matching `pattern`; unset: empty. */
function list(pattern: RegExp, what: string) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      const items = (value ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
      const bad = items.filter((item) => !pattern.test(item));
      if (bad.length > 0) {
        context.addIssue({
          code: "custom",
          message: `must be comma-separated ${what}, not ${bad.join(", ")}`,
        });
        return z.NEVER;
      }
      return items;
    });
}

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
  /** SNS topics whose notifications the queue receives (comma-separated ARNs). */
  REWARDS_SNS_TOPIC_ARNS: list(/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]+$/, "SNS topic ARNs"),
  /** An EventBridge bus (name or ARN, in this account) whose reading events go to the queue. */
  REWARDS_EVENTBRIDGE_BUS: z
    .string()
    .regex(/^(arn:aws[\w-]*:events:[\w-]+:\d{12}:event-bus\/)?[\w.\-/]+$/, "must be a bus name or ARN")
    .optional(),
  /** Only events of these EventBridge sources (comma-separated); unset: any source. */
  REWARDS_EVENTBRIDGE_SOURCES: list(/^[\w.\-/]+$/, "EventBridge sources"),
  /** Accounts whose principals may send to the queue directly (comma-separated ids). */
  REWARDS_PRODUCER_ACCOUNTS: list(/^\d{12}$/, "12-digit account ids"),
});

export interface DeploySettings {
  maximumConcurrency: number;
  alarmEmail: string | undefined;
  snsTopicArns: string[];
  eventBridgeBus: string | undefined;
  eventBridgeSources: string[];
  producerAccounts: string[];
}

/** Throws ConfigError naming every bad setting, before anything is deployed. */
export function deploySettings(env: Record<string, string | undefined> = process.env): DeploySettings {
  const config = readConfig(deploySettingsSchema, env);
  return {
    maximumConcurrency: config.REWARDS_MAXIMUM_CONCURRENCY,
    alarmEmail: config.REWARDS_ALARM_EMAIL,
    snsTopicArns: config.REWARDS_SNS_TOPIC_ARNS,
    eventBridgeBus: config.REWARDS_EVENTBRIDGE_BUS,
    eventBridgeSources: config.REWARDS_EVENTBRIDGE_SOURCES,
    producerAccounts: config.REWARDS_PRODUCER_ACCOUNTS,
  };
}
