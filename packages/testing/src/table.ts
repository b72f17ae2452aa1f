import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, profileKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";

export async function profileOf(doc: DynamoDBDocumentClient, tableName: string, userId: string) {
  return (
    await doc.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }))
  ).Item;
}

export async function guardOf(doc: DynamoDBDocumentClient, tableName: string, key: string) {
  return (await doc.send(new GetCommand({ TableName: tableName, Key: guardKey(key), ConsistentRead: true })))
    .Item;
}

/** `profileOf` for a test that holds only a stack's env (TABLE_NAME and the endpoint): a client of its own, closed after. */
export async function profileIn(env: Record<string, string>, userId: string) {
  const doc = createDynamoClient(env);
  try {
    return await profileOf(doc, env.TABLE_NAME as string, userId);
  } finally {
    doc.destroy();
  }
}
