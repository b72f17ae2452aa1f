import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { profileKey } from "@rewards/core";
import { profileRepairAdvice } from "./profileRepairAdvice";
import { storedProfile } from "./repairProfileXp";

/**
 * What to add to the reader's error about the item at `key`, read for `userId`: when it is the
 * user's profile, how to mend it (profileRepairAdvice, from the profile as stored now); "" for
 * any other item.
 */
export async function unreadableItemAdvice(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  key: { pk: string; sk: string },
): Promise<string> {
  if (key.sk !== profileKey(userId).sk) return "";
  return profileRepairAdvice(userId, await storedProfile(dynamo, tableName, userId));
}
