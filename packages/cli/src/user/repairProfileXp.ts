import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { profileKey } from "@rewards/core";
import { CliError } from "../cliError";

export interface XpRepair {
  userId: string;
  /** The xp the profile held (null: no xp attribute, or no profile). */
  from: unknown;
  to: number | string;
}

/**
 * Writes `to` as the profile's xp, only if it still holds what was read, so a concurrent
 * award is never overwritten. A raw write: the reader refuses what this repairs.
 */
export async function repairProfileXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  to: number | string,
  now: Date = new Date(),
): Promise<XpRepair> {
  const item = (
    await dynamo.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }))
  ).Item;
  const before: unknown = item?.xp;
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: profileKey(userId),
        UpdateExpression: "SET xp = :xp, updatedAt = :now",
        ConditionExpression: before === undefined ? "attribute_not_exists(xp)" : "xp = :before",
        ExpressionAttributeValues: {
          ":xp": to,
          ":now": now.toISOString(),
          ...(before === undefined ? {} : { ":before": before }),
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new CliError(
        `the profile's xp changed while it was being repaired (was ${JSON.stringify(before)}): nothing written; run again`,
      );
    throw error;
  }
  return { userId, from: before ?? null, to };
}
