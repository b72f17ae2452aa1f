import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ConfigError,
  dailyCapVariable,
  type Environment,
  readConfig,
  resources,
  rulesRefreshVariable,
} from "@rewards/core/deploy";
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

/** A stage's deploy settings (docs/deploying.md, "Settings"): its file's, or the deploying shell's. */
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
  /** Accounts whose principals may put rules (theirs only) on the rewards bus (comma-separated ids). */
  REWARDS_CONSUMER_ACCOUNTS: list(/^\d{12}$/, "12-digit account ids"),
  /** XP one user may earn per UTC day (docs/awards.md, "The daily cap"), handed to the worker; unset: no cap. */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  /** Days a history item is kept after its award (docs/history.md, "Retention"), handed to the history writer; 0: forever; unset: 400. */
  REWARDS_HISTORY_DAYS: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (value.trim() !== "" && Number.isSafeInteger(n) && n >= 0) return n;
      context.addIssue({
        code: "custom",
        message: `must be a whole number of days, 0 or more (0 keeps the history forever), not ${value}`,
      });
      return z.NEVER;
    }),
  /** Weeks a week's board is kept after the week ends (docs/board.md), handed to the history writer; unset: 8. */
  REWARDS_BOARD_WEEKS: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (value.trim() !== "" && Number.isSafeInteger(n) && n >= 1) return n;
      context.addIssue({
        code: "custom",
        message: `must be a whole number of weeks, 1 or more, not ${value}`,
      });
      return z.NEVER;
    }),
  /**
   * Shards each week's board is spread over (docs/board.md), handed to the history writer and
   * the read API alike: one setting, so a reader never asks fewer shards than were written.
   * Unset: 32.
   */
  REWARDS_BOARD_SHARDS: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (value.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= 1000) return n;
      context.addIssue({ code: "custom", message: `must be a whole number from 1 to 1000, not ${value}` });
      return z.NEVER;
    }),
  /**
   * Who may call the read API's function URL (docs/reading.md, "Granting a site"): 12-digit
   * account ids or IAM role ARNs, comma-separated; unset: no one outside this account's own
   * IAM policies. Never `*`: the pattern refuses it.
   */
  REWARDS_READER_PRINCIPALS: list(
    /^(\d{12}|arn:aws[\w-]*:iam::\d{12}:role\/[\w+=,.@/-]+)$/,
    "12-digit account ids or IAM role ARNs (arn:aws:iam::<account>:role/<name>)",
  ),
  /**
   * Seconds between a function's reads of the site's rules' `CURRENT` (docs/rules.md#at-run-time),
   * handed to the worker, the history writer and the read API alike: 1 to 3,600; unset: 30.
   */
  REWARDS_RULES_REFRESH_SECONDS: rulesRefreshVariable(),
  /** Concurrent executions reserved for the read API (it can neither exceed them nor starve the worker); unset: unreserved. */
  REWARDS_READER_CONCURRENCY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const n = Number(value);
      if (value.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= 1000) return n;
      context.addIssue({ code: "custom", message: `must be a whole number from 1 to 1000, not ${value}` });
      return z.NEVER;
    }),
});

export interface DeploySettings {
  maximumConcurrency: number;
  alarmEmail: string | undefined;
  snsTopicArns: string[];
  eventBridgeBus: string | undefined;
  eventBridgeSources: string[];
  producerAccounts: string[];
  consumerAccounts: string[];
  dailyCap: number | undefined;
  /** REWARDS_HISTORY_DAYS; unset: the history writer's default (historyEnvironment's, 400). */
  historyDays: number | undefined;
  /** REWARDS_BOARD_WEEKS; unset: the history writer's default (historyEnvironment's, 8). */
  boardWeeks: number | undefined;
  /** REWARDS_BOARD_SHARDS; unset: the default both the writer and the read API take (32). */
  boardShards: number | undefined;
  /** REWARDS_RULES_REFRESH_SECONDS; unset: the functions' default (30). */
  rulesRefreshSeconds: number;
  /** REWARDS_READER_PRINCIPALS: account ids and role ARNs allowed to invoke the read API's URL. */
  readerPrincipals: string[];
  /** REWARDS_READER_CONCURRENCY; unset: the read API's concurrency is not reserved. */
  readerConcurrency: number | undefined;
}

/** Where a stage's settings file is: REWARDS_STAGE_SETTINGS if set, else infra/stages/<stage>.json. */
export function stageSettingsPath(stage: string, root: string, env: Environment = process.env): string {
  return env.REWARDS_STAGE_SETTINGS || join(root, "infra", "stages", `${stage}.json`);
}

export interface StageOptions {
  stage: string;
  /** The project's root, where infra/stages/ is. */
  root: string;
  /** A stage that must have its file (production): its settings are never the shell's alone. */
  requireFile?: boolean;
}

/** The stages that deploy only from their settings file: the protected one. */
export const STAGES_NEEDING_A_FILE = ["production"];

/** How a deploy of `stage` finds its settings (SST's $app.stage and $cli.paths.root). */
export function stageOptions(stage: string, root: string): StageOptions {
  return { stage, root, requireFile: STAGES_NEEDING_A_FILE.includes(stage) };
}

const settingNames = Object.keys(deploySettingsSchema.shape) as Array<
  keyof typeof deploySettingsSchema.shape
>;
const isSetting = (name: string): name is (typeof settingNames)[number] =>
  (settingNames as string[]).includes(name);
const problem = (variable: string, text: string) => new ConfigError([{ variable, problem: text }]);

/**
 * A stage's settings file: a JSON object of the same names as the shell's variables, each a
 * string (a list may be an array of strings, a number a number). Undefined when there is none.
 */
function readStageFile(path: string): Environment | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw problem(path, `cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw problem(path, "is not JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw problem(
      path,
      'must be a JSON object of settings, e.g. { "REWARDS_ALARM_EMAIL": "ops@example.com" }',
    );
  const settings: Environment = {};
  for (const [name, value] of Object.entries(json)) {
    // A misspelt name would otherwise be a setting silently left out.
    if (!isSetting(name)) throw problem(path, `names ${name}, which is not a deploy setting`);
    if (typeof value === "string" || typeof value === "number") settings[name] = String(value);
    else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      settings[name] = value.join(",");
    else throw problem(path, `${name} must be a string, a number or an array of strings`);
  }
  return settings;
}

/** One setting's parsed value, to compare the shell's with the file's whatever their spelling. */
const parsedValue = (name: (typeof settingNames)[number], value: string | undefined) =>
  JSON.stringify(readConfig(z.object({ [name]: deploySettingsSchema.shape[name] }), { [name]: value })[name]);

/**
 * The variables a stage deploys with. With a settings file, the file's and only the file's:
 * a deploy variable also set in the shell must say the same, or the deploy stops (a shell
 * cannot change, or drop, what the committed file says). Without one, the shell's, except
 * for a stage that must have its file.
 */
export function stageEnvironment(env: Environment, options: StageOptions): Environment {
  const path = stageSettingsPath(options.stage, options.root, env);
  const file = readStageFile(path);
  const shell = settingNames.filter((name) => env[name] !== undefined && env[name] !== "");
  if (file === undefined) {
    if (!options.requireFile) return env;
    const example = Object.fromEntries(shell.map((name) => [name, env[name]]));
    throw problem(
      path,
      `is missing: stage ${options.stage} deploys only from its settings file, so that no deploy drops a subscription or a policy a shell forgot. Create it with this stage's settings and commit it: ${JSON.stringify(example)}`,
    );
  }
  const conflicts = shell.filter((name) => parsedValue(name, env[name]) !== parsedValue(name, file[name]));
  if (conflicts.length > 0)
    throw new ConfigError(
      conflicts.map((name) => ({
        variable: name,
        problem: `is ${JSON.stringify(env[name])} in the deploying shell but ${file[name] === undefined ? "unset" : JSON.stringify(file[name])} in ${path}: a stage with a settings file takes its settings from the file (change the file, or unset the variable)`,
      })),
    );
  return file;
}

/**
 * Throws ConfigError naming every bad setting, before anything is deployed. With `stage`, the
 * stage's settings file is read first (stageEnvironment); without, `env` is the settings.
 */
export function deploySettings(env: Environment = process.env, stage?: StageOptions): DeploySettings {
  const config = readConfig(deploySettingsSchema, stage ? stageEnvironment(env, stage) : env);
  return {
    maximumConcurrency: config.REWARDS_MAXIMUM_CONCURRENCY,
    alarmEmail: config.REWARDS_ALARM_EMAIL,
    snsTopicArns: config.REWARDS_SNS_TOPIC_ARNS,
    eventBridgeBus: config.REWARDS_EVENTBRIDGE_BUS,
    eventBridgeSources: config.REWARDS_EVENTBRIDGE_SOURCES,
    producerAccounts: config.REWARDS_PRODUCER_ACCOUNTS,
    consumerAccounts: config.REWARDS_CONSUMER_ACCOUNTS,
    dailyCap: config.REWARDS_DAILY_XP_CAP,
    historyDays: config.REWARDS_HISTORY_DAYS,
    boardWeeks: config.REWARDS_BOARD_WEEKS,
    boardShards: config.REWARDS_BOARD_SHARDS,
    rulesRefreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
    readerPrincipals: config.REWARDS_READER_PRINCIPALS,
    readerConcurrency: config.REWARDS_READER_CONCURRENCY,
  };
}
