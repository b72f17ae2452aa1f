import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, profileKey } from "@rewards/core";

export async function profileOf(doc: DynamoDBDocumentClient, tableName: string, userId: string) {
  return (
    await doc.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }))
  ).Item;
}

export async function guardOf(doc: DynamoDBDocumentClient, tableName: string, key: string) {
  return (await doc.send(new GetCommand({ TableName: tableName, Key: guardKey(key), ConsistentRead: true })))
    .Item;
}
