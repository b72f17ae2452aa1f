import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type ConfigVariable,
  type ConfigWith,
  createDynamoClient,
  createSqsClient,
  loadConfig,
} from "@rewards/core";

/**
 * A command's configuration from the variables in the README's Configuration table: the
 * local stack when they point at it (`rewards dev` prints them), real AWS otherwise. A
 * missing one is a ConfigError naming it.
 */
export function commandConfig<K extends ConfigVariable>(...required: K[]): ConfigWith<K> {
  return loadConfig(process.env, required);
}

export function clientsFor(config: ConfigWith<never>): { sqs: SQSClient; dynamo: DynamoDBDocumentClient } {
  return { sqs: createSqsClient(config), dynamo: createDynamoClient(config) };
}
