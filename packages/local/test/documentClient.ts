import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { LocalStack } from "../src";

/** A plain SDK document client on a stack's DynamoDB, as any user of the stack would make. */
export function documentClientFor(stack: LocalStack, maxAttempts?: number): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: stack.env.AWS_REGION,
      endpoint: stack.endpoints.dynamodb,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
      maxAttempts,
    }),
  );
}
