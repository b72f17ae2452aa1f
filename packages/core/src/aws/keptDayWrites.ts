import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { dayNumberOf, progressKey } from "../domain";
import { type AchievementTable, consistentItems } from "./readerAchievements";

/**
 * A reader's kept days (docs/reading.md#streaks), as the history's writer and the repairs
 * (`history rebuild`, `backfill`) change them: one number set on the progress item.
 */

/** `ADD` or `DELETE` day numbers in the reader's kept days: adding a day twice, or removing one not there, changes nothing. */
export async function changeKeptDays(
  table: AchievementTable,
  userId: string,
  action: "ADD" | "DELETE",
  days: readonly number[],
): Promise<void> {
  if (days.length === 0) return;
  await table.dynamo.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: progressKey(userId),
      UpdateExpression: `${action} #days :days`,
      ExpressionAttributeNames: { "#days": "days" },
      ExpressionAttributeValues: { ":days": new Set(days) },
    }),
  );
}

/**
 * The days among `keys`' streak.day history items that a revocation has overtaken since they
 * were read unrevoked: read again, consistently, after the ADD. A revocation another writer
 * applied between the read and the ADD (its DELETE first) would otherwise be undone by it.
 */
export async function overtakenDays(
  table: AchievementTable,
  keys: ReadonlyArray<{ pk: string; sk: string }>,
): Promise<number[]> {
  const days: number[] = [];
  for (const item of await consistentItems(table, keys, "kept days' history items")) {
    const day = (item.data as Record<string, unknown> | undefined)?.day;
    if (item.revokedAt !== undefined && typeof day === "string") days.push(dayNumberOf(day));
  }
  return days;
}
