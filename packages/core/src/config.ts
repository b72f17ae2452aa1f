import { z } from "zod";

const optionalUrl = z.url().optional();

/** The README's Configuration table: every variable the system reads, with its default. */
export const configSchema = z.object({
  TABLE_NAME: z.string().min(1, "must not be empty").optional(),
  QUEUE_URL: optionalUrl,
  DLQ_URL: optionalUrl,
  AWS_REGION: z.string().min(1).default("us-east-1"),
  AWS_ENDPOINT_URL_SQS: optionalUrl,
  AWS_ENDPOINT_URL_DYNAMODB: optionalUrl,
  // The SDK's own credential variables, read here so that a config built from an env
  // other than process.env (a local stack's, say) carries its credentials with it.
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  REWARDS_CONCURRENCY: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(10),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigVariable = keyof Config;

/** A Config whose `required` variables are known to be present. */
export type ConfigWith<K extends ConfigVariable> = Config & { [P in K]-?: NonNullable<Config[P]> };

/** Names every bad variable at once, so one fix-and-rerun is enough. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: ReadonlyArray<{ variable: string; problem: string }>) {
    super(
      `invalid configuration: ${problems.map(({ variable, problem }) => `${variable} ${problem}`).join("; ")}`,
    );
  }
}

/**
 * Reads and validates the environment once, at start. Empty strings count as unset,
 * which is what `VAR= command` means to a person.
 */
export function loadConfig<K extends ConfigVariable = never>(
  env: Record<string, string | undefined> = process.env,
  required: readonly K[] = [],
): ConfigWith<K> {
  const present = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((name) => [name, env[name]])
      .filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = configSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0]),
        problem: issue.code === "invalid_format" ? "must be a URL" : issue.message,
      }));
  for (const name of required) {
    if (present[name] === undefined) problems.push({ variable: name, problem: "is required" });
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  return parsed.data as ConfigWith<K>;
}
