import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";

/** The two clients nearly every operation takes, from the tools' configuration. */
export function clientsFor(config: ToolConfig): { sqs: SQSClient; dynamo: DynamoDBDocumentClient } {
  return { sqs: createSqsClient(config), dynamo: createDynamoClient(config) };
}
