import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import {
  type ConfigWith,
  dailyCapVariable,
  type Environment,
  logLevelSchema,
  readConfig,
  sdkVariables,
  urlVariable,
} from "@rewards/core/deploy";
import { z } from "zod";
import { useVariables } from "./variablesInUse";

/**
 * The CLI's variables (the README's Configuration table, "cli"). Each command requires what
 * it uses; `rewards worker` and `rewards dev` hand the function its own (which it validates).
 */
const cliConfigSchema = z.object({
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
  ...sdkVariables,
  AWS_ENDPOINT_URL_EVENTBRIDGE: urlVariable().optional(),
  AWS_ENDPOINT_URL_DYNAMODB_STREAMS: urlVariable().optional(),
  LOG_LEVEL: logLevelSchema.optional(),
  /** Not the CLI's own: `rewards worker` and `rewards dev` hand it to the function, which validates it. */
  REWARDS_CONCURRENCY: z.string().optional(),
  /** The worker's cap, read by the commands that say what it did or would do (`user`, `dlq stats`, `verify`). */
  REWARDS_DAILY_XP_CAP: dailyCapVariable(),
});

type CliConfigSchema = typeof cliConfigSchema;
export type CliConfig<K extends keyof z.output<CliConfigSchema> = never> = ConfigWith<CliConfigSchema, K>;

/**
 * A command's configuration: the local stack when the variables point at it (`rewards dev`
 * prints them), real AWS otherwise. A missing or bad one is a ConfigError naming it.
 */
export function commandConfig<K extends keyof z.output<CliConfigSchema>>(...required: K[]): CliConfig<K> {
  useVariables(required);
  return readConfig(cliConfigSchema, process.env, required);
}

/** The same, from an environment other than this process's (the local stack's, say). */
export function configFrom<K extends keyof z.output<CliConfigSchema>>(
  env: Environment,
  ...required: K[]
): CliConfig<K> {
  return readConfig(cliConfigSchema, env, required);
}

export function clientsFor(config: CliConfig): { sqs: SQSClient; dynamo: DynamoDBDocumentClient } {
  return { sqs: createSqsClient(config), dynamo: createDynamoClient(config) };
}
