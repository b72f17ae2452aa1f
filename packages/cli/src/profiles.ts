import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { profileKey } from "@rewards/core";
import { classifyError, retryRemainder } from "@rewards/core/aws";
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

/** Every listed user's XP and award count (null where no profile exists), 100 keys per BatchGet. */
export async function readProfiles(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userIds: readonly string[],
): Promise<Map<string, ProfileTotals | null>> {
  const profiles = new Map<string, ProfileTotals | null>(userIds.map((id) => [id, null]));
  for (let start = 0; start < userIds.length; start += 100) {
    // BatchGet may leave keys unprocessed under load: ask again for exactly those.
    const { remainder, error } = await retryRemainder(
      userIds.slice(start, start + 100).map((id) => profileKey(id)),
      async (keys) => {
        const { Responses, UnprocessedKeys } = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of Responses?.[tableName] ?? []) {
          profiles.set(String(item.pk).slice("USER#".length), {
            xp: typeof item.xp === "number" ? item.xp : Number.NaN,
            awards: typeof item.awards === "number" ? item.awards : Number.NaN,
          });
        }
        return (UnprocessedKeys?.[tableName]?.Keys ?? []) as typeof keys;
      },
      // A missing table or denied access is said at once, not retried.
      { shouldRetry: (error) => classifyError(error) === "transient" },
    );
    if (remainder.length > 0) throw error ?? new Error(`${remainder.length} profiles could not be read`);
  }
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
    ExpressionAttributeValues: { ":day": "DAY#", ":cap": cap },
    ConsistentRead: true,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? [])
      over.push({
        userId: String(item.pk).slice("USER#".length),
        day: String(item.sk).slice("DAY#".length),
        xp: Number(item.xp),
      });
  }
  return over;
}
