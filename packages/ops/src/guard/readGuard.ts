import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey } from "@rewards/core";

/** The guard item of an intent as stored (a consistent read); undefined when there is none. */
export async function readGuard(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  intentKey: string,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: guardKey(intentKey), ConsistentRead: true }),
  );
  return Item;
}
