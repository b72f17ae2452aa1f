import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DAY_SK_PREFIX, dayOfKey, profileKey, userOfKey } from "@rewards/core";
import { batchGetAll } from "./batchGetAll";
import { scanTable } from "./tableScan";

export interface Mismatch {
  userId: string;
  expected: number;
  actual: number | null;
}

export interface ProfileTotals {
  xp: number;
  awards: number;
}

/** Every listed user's XP and award count (null where no profile exists), read consistently (batchGetAll). */
export async function readProfiles(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userIds: readonly string[],
): Promise<Map<string, ProfileTotals | null>> {
  const profiles = new Map<string, ProfileTotals | null>(userIds.map((id) => [id, null]));
  const items = await batchGetAll(
    dynamo,
    tableName,
    userIds.map((id) => profileKey(id)),
    "profiles",
  );
  for (const item of items)
    profiles.set(userOfKey(item.pk) ?? String(item.pk), {
      xp: typeof item.xp === "number" ? item.xp : Number.NaN,
      awards: typeof item.awards === "number" ? item.awards : Number.NaN,
    });
  return profiles;
}

export async function compareXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  expected: Record<string, number>,
): Promise<{
  mismatches: Mismatch[];
  expectedTotal: number;
  actualTotal: number;
  /** Awards the table records for these users: intents paid. */
  awardsTotal: number;
  users: number;
}> {
  const actual = await readProfiles(dynamo, tableName, Object.keys(expected));
  const mismatches: Mismatch[] = [];
  let expectedTotal = 0;
  let actualTotal = 0;
  let awardsTotal = 0;
  for (const [userId, want] of Object.entries(expected)) {
    // No profile: nothing was ever paid, which is 0 XP.
    const got = actual.get(userId)?.xp ?? 0;
    expectedTotal += want;
    actualTotal += got ?? 0;
    awardsTotal += actual.get(userId)?.awards ?? 0;
    if (got !== want) mismatches.push({ userId, expected: want, actual: got });
  }
  return { mismatches, expectedTotal, actualTotal, awardsTotal, users: actual.size };
}

/**
 * The day totals (docs/awards.md#the-daily-cap) above `cap`: a scan of the table (a local run's check; on AWS a
 * scan reads every item). An empty list is the cap held.
 */
export async function dayTotalsOver(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  cap: number,
): Promise<Array<{ userId: string; day: string; xp: number }>> {
  const over: Array<{ userId: string; day: string; xp: number }> = [];
  const pages = scanTable(dynamo, {
    TableName: tableName,
    FilterExpression: "begins_with(sk, :day) AND xp > :cap",
    ExpressionAttributeValues: { ":day": DAY_SK_PREFIX, ":cap": cap },
    ConsistentRead: true,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? [])
      over.push({
        userId: userOfKey(item.pk) ?? String(item.pk),
        day: dayOfKey(item.sk) ?? String(item.sk),
        xp: Number(item.xp),
      });
  }
  return over;
}
