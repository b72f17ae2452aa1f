import { z } from "zod";
import { DEFAULT_RULES_REFRESH_SECONDS } from "../domain/rules/rulesVersion";

/**
 * Configuration from the environment, one schema per consumer (the worker, the CLI, the
 * local stack, the deployment each list only what they read; the producer library reads
 * none). The pieces they share are here; `readConfig` validates a schema against an
 * environment and names every bad variable at once.
 */

/** pino's levels, which our loggers use. */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";

/** Every spelling we accept, lower-cased: pino's, and Powertools' / Lambda's (WARNING, CRITICAL). */
const LOG_LEVELS: Record<string, LogLevel> = {
  trace: "trace",
  debug: "debug",
  info: "info",
  warn: "warn",
  warning: "warn",
  error: "error",
  fatal: "fatal",
  critical: "fatal",
  silent: "silent",
};

/** `LOG_LEVEL` in any case, in pino's, Powertools' or Lambda's names. */
export const logLevelSchema = z.preprocess(
  (value) => LOG_LEVELS[String(value).toLowerCase()] ?? value,
  z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], {
    error:
      "must be one of TRACE, DEBUG, INFO, WARN (or WARNING), ERROR, CRITICAL (or FATAL), SILENT, in any case",
  }),
);

/** A variable a consumer cannot start without (environment values are text, or absent). */
/**
 * The two variables every function's log level comes from: LOG_LEVEL, and the one Lambda's
 * advanced logging controls set (AWS_LAMBDA_LOG_LEVEL); LOG_LEVEL wins when both are set.
 */
export const functionLogVariables = {
  LOG_LEVEL: logLevelSchema.optional(),
  AWS_LAMBDA_LOG_LEVEL: logLevelSchema.optional(),
};

/** A function's log level from its functionLogVariables: LOG_LEVEL, else AWS_LAMBDA_LOG_LEVEL, else info. */
export function functionLogLevel(config: {
  LOG_LEVEL?: LogLevel | undefined;
  AWS_LAMBDA_LOG_LEVEL?: LogLevel | undefined;
}): LogLevel {
  return config.LOG_LEVEL ?? config.AWS_LAMBDA_LOG_LEVEL ?? "info";
}

export const requiredText = () => z.string({ error: "is required" });

export const urlVariable = () => z.url({ error: "must be a URL" });

/** `REWARDS_DAILY_XP_CAP`: XP one user may earn per UTC day (docs/awards.md, "The daily cap"); unset: no cap. */
export const dailyCapVariable = () =>
  z.coerce
    .number({ error: "must be a positive whole number (unset it for no cap)" })
    .int("must be a whole number")
    .min(1, "must be a positive whole number (unset it for no cap)")
    .optional();

export { DEFAULT_RULES_REFRESH_SECONDS };

/**
 * `REWARDS_RULES_REFRESH_SECONDS`: a function re-reads the rules' `CURRENT` at most this often,
 * and first re-reads it before a batch when its copy is older than twice that.
 */
export const rulesRefreshVariable = () =>
  z.coerce
    .number({ error: "must be a whole number of seconds from 1 to 3,600" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(3600, "must be 3,600 or fewer")
    .default(DEFAULT_RULES_REFRESH_SECONDS);

/**
 * `REWARDS_BOARD_SHARDS` as a reader of the board takes it (the read API, the CLI): the history
 * writer's shard count, whole and from 1 to 1,000 as the writer takes it, since a reader asking
 * fewer shards than the writer wrote misses entries (docs/board.md#sharding). Each consumer
 * says what unset means (a default, or the reader library's own).
 */
export const boardShardsVariable = () =>
  z.coerce
    .number({ error: "must be a whole number from 1 to 1,000 (the history writer's)" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(1000, "must be 1,000 or fewer");

/** `REWARDS_BOARD_WEEKS`: weeks a week's board is kept after it ends (docs/board.md#retention); unset: 8. */
export const boardWeeksVariable = () =>
  z.coerce
    .number({ error: "must be a whole number of weeks, 1 or more" })
    .int("must be a whole number")
    .min(1, "must be 1 or more");

/** REWARDS_STAGE when unset: a function run outside a deploy (the local stack, the tests). */
export const LOCAL_STAGE = "local";

/**
 * `REWARDS_STAGE`: the stage a function runs in (the deploy sets it to the SST stage), which
 * every metric it emits carries as its `stage` dimension, so a stage's alarms count its own
 * metrics alone. Held to what CloudWatch takes as a dimension value (1 to 1,024 ASCII
 * characters, not all spaces): a value it refused would drop the function's metrics, silently.
 */
export const stageVariable = () =>
  z
    .string()
    .max(1024, "must be at most 1,024 characters (a CloudWatch dimension value)")
    .regex(/^[ -~]*[!-~][ -~]*$/, "must be printable ASCII, not only spaces (a CloudWatch dimension value)")
    .default(LOCAL_STAGE);

/** The SDK's own variables, as our clients read them (see sdkClientOptions). */
export const sdkVariables = {
  AWS_REGION: z.string().min(1).default("us-east-1"),
  AWS_ENDPOINT_URL_SQS: urlVariable().optional(),
  AWS_ENDPOINT_URL_DYNAMODB: urlVariable().optional(),
  // Read here so that a config built from an env other than process.env (a local stack's,
  // say) carries its credentials with it.
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
};

/** Names every bad variable at once (in name order), so one fix-and-rerun is enough. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: ReadonlyArray<{ variable: string; problem: string }>) {
    super(
      `invalid configuration: ${problems.map(({ variable, problem }) => `${variable} ${problem}`).join("; ")}`,
    );
  }
}

export type Environment = Record<string, string | undefined>;

/** `schema`'s output with the `required` keys known to be present. */
export type ConfigWith<S extends z.ZodObject, K extends keyof z.output<S>> = z.output<S> & {
  [P in K]-?: NonNullable<z.output<S>[P]>;
};

/**
 * Reads the variables `schema` names from `env`, validated; other variables are never
 * looked at. Empty strings count as unset, which is what `VAR= command` means to a person.
 * `required` names optional variables this caller cannot do without.
 */
export function readConfig<S extends z.ZodObject, K extends keyof z.output<S> = never>(
  schema: S,
  env: Environment,
  required: readonly K[] = [],
): ConfigWith<S, K> {
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((name) => [name, env[name]])
      .filter(([, value]) => value !== ""),
  );
  const parsed = schema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ variable: String(issue.path[0]), problem: issue.message }));
  for (const name of required) {
    if (present[name as string] === undefined && !problems.some((p) => p.variable === name)) {
      problems.push({ variable: String(name), problem: "is required" });
    }
  }
  problems.sort((a, b) => a.variable.localeCompare(b.variable));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return parsed.data as ConfigWith<S, K>;
}
