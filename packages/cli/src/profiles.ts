import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { profileKey, retry } from "@rewards/core";

export interface Mismatch {
  userId: string;
  expected: number;
  actual: number | null;
}

/** Every listed user's XP (null where no profile exists), 100 keys per BatchGet. */
export async function readXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userIds: readonly string[],
): Promise<Map<string, number | null>> {
  const xp = new Map<string, number | null>(userIds.map((id) => [id, null]));
  for (let start = 0; start < userIds.length; start += 100) {
    let keys: Array<Record<string, unknown>> = userIds.slice(start, start + 100).map((id) => profileKey(id));
    // BatchGet may leave keys unprocessed under load: ask again for exactly those.
    await retry(
      async () => {
        const { Responses, UnprocessedKeys } = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of Responses?.[tableName] ?? []) {
          xp.set(String(item.pk).slice("USER#".length), typeof item.xp === "number" ? item.xp : Number.NaN);
        }
        keys = UnprocessedKeys?.[tableName]?.Keys ?? [];
        if (keys.length > 0) throw new Error(`${keys.length} keys unprocessed`);
      },
      () => true,
    );
  }
  return xp;
}

export async function compareXp(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  expected: Record<string, number>,
): Promise<{ mismatches: Mismatch[]; expectedTotal: number; actualTotal: number; users: number }> {
  const actual = await readXp(dynamo, tableName, Object.keys(expected));
  const mismatches: Mismatch[] = [];
  let expectedTotal = 0;
  let actualTotal = 0;
  for (const [userId, want] of Object.entries(expected)) {
    const got = actual.get(userId) ?? null;
    expectedTotal += want;
    actualTotal += got ?? 0;
    if (got !== want) mismatches.push({ userId, expected: want, actual: got });
  }
  return { mismatches, expectedTotal, actualTotal, users: actual.size };
}
