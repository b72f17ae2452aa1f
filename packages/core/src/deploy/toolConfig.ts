import { z } from "zod";
import {
  boardShardsVariable,
  boardWeeksVariable,
  type ConfigWith,
  dailyCapVariable,
  type Environment,
  logLevelSchema,
  readConfig,
  sdkVariables,
  urlVariable,
} from "./config";

/**
 * The operator tools' variables (the README's Configuration table, "cli"): what the `rewards`
 * command, the local functions and the scenario read to find a stage. Each tool requires what
 * it uses; `rewards worker` and `rewards dev` hand a function its own (which it validates).
 */
export const toolConfigSchema = z.object({
  TABLE_NAME: z.string().min(1, "must not be empty").optional(),
  QUEUE_URL: urlVariable().optional(),
  DLQ_URL: urlVariable().optional(),
  /** The rewards bus, the announcer's failure queue, and (locally) the queue the bus fills with grants. */
  BUS_NAME: z.string().min(1, "must not be empty").optional(),
  ANNOUNCER_FAILURE_QUEUE_URL: urlVariable().optional(),
  GRANTS_QUEUE_URL: urlVariable().optional(),
  /** The history writer's failure queue (given-up batches), for `rewards history`. */
  HISTORY_FAILURE_QUEUE_URL: urlVariable().optional(),
  /** Not the CLI's own: `rewards history` hands it to the function, which validates it. */
  REWARDS_HISTORY_DAYS: z.string().optional(),
  /** Not the CLI's own: `rewards worker` and `rewards dev` hand it to the functions, which validate it. */
  REWARDS_RULES_REFRESH_SECONDS: z.string().optional(),
  /**
   * Locally, where each stream function keeps its place in the stream (`rewards dev` prints
   * them; `rewards announcer` / `history` keep theirs there unless `--checkpoint`): `rewards
   * status` reads a consumer's lag from it. AWS keeps a mapping's checkpoint out of reach.
   */
  ANNOUNCER_CHECKPOINT_FILE: z.string().min(1).optional(),
  HISTORY_CHECKPOINT_FILE: z.string().min(1).optional(),
  /** A stage's stream functions (`rewards env` exports them): `rewards status` reads their IteratorAge. */
  ANNOUNCER_FUNCTION_NAME: z.string().min(1).optional(),
  HISTORY_FUNCTION_NAME: z.string().min(1).optional(),
  /**
   * A stage's alarms, by name, comma-separated (`rewards env` exports them): alarm names carry
   * no stage (SST adds a random suffix), so this list is how `rewards status` knows its own.
   */
  REWARDS_ALARM_NAMES: z
    .string()
    .transform((names) =>
      names
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    )
    .optional(),
  /** The stage's name (`rewards env` exports it), for `rewards status` to say which stage it shows. */
  REWARDS_STAGE: z.string().optional(),
  ...sdkVariables,
  AWS_ENDPOINT_URL_EVENTBRIDGE: urlVariable().optional(),
  AWS_ENDPOINT_URL_DYNAMODB_STREAMS: urlVariable().optional(),
  LOG_LEVEL: logLevelSchema.optional(),
  /** Not the CLI's own: `rewards worker` and `rewards dev` hand it to the function, which validates it. */
  REWARDS_CONCURRENCY: z.string().optional(),
  /** The worker's cap, read by the commands that say what it did or would do (`user`, `dlq stats`, `verify`). */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
  /** The history writer's board shards, read by `rewards board` and handed to the local functions; unset: their default. */
  REWARDS_BOARD_SHARDS: boardShardsVariable().optional(),
  /** The history writer's board retention, for the local writer and `history rebuild` / `backfill`; unset: its default. */
  REWARDS_BOARD_WEEKS: boardWeeksVariable().optional(),
});

type ToolConfigSchema = typeof toolConfigSchema;
export type ToolConfig<K extends keyof z.output<ToolConfigSchema> = never> = ConfigWith<ToolConfigSchema, K>;

/**
 * The tools' configuration from an environment: the local stack when the variables point at it
 * (`rewards dev` prints them), real AWS otherwise. A missing or bad one is a ConfigError naming it.
 */
export function toolConfigFrom<K extends keyof z.output<ToolConfigSchema>>(
  env: Environment,
  ...required: K[]
): ToolConfig<K> {
  return readConfig(toolConfigSchema, env, required);
}
