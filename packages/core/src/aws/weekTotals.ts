import { setTimeout as sleep } from "node:timers/promises";
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type WeekAward, weekHistoryStart, weekItemOf, weekKey, weekPutCondition, weekXpOf } from "../domain";
import { isConditionFailure } from "./classifyError";

/**
 * A reader's week summed from the history and put under an optimistic lock (docs/board.md#exactly-once):
 * the history's writer after each batch, and `rewards history rebuild` / `backfill` for weeks the
 * stream no longer holds. The sum is the truth; the lock makes the last put the one that read last.
 */
export interface WeekTable {
  dynamo: Pick<DynamoDBDocumentClient, "send">;
  tableName: string;
  /** REWARDS_BOARD_SHARDS. */
  shards: number;
  /** REWARDS_BOARD_WEEKS. */
  keepWeeks: number;
  /** Epoch ms: the item's updatedAt. */
  clock?: () => number;
}

/** Puts lost to a concurrent writer of the same week before giving up (the caller retries later). */
const WRITE_ATTEMPTS = 5;
/** Past the last award key: `AWARD$` sorts right after every `AWARD#…`. */
const AFTER_AWARDS = "AWARD$";

/** Every history item that can hold an award earned in `week` or after it, read consistently, page by page. */
export async function awardsSince(table: WeekTable, userId: string, week: string): Promise<WeekAward[]> {
  const awards: WeekAward[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.dynamo.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: {
          ":pk": weekKey(userId, week).pk,
          ":from": weekHistoryStart(week),
          ":to": AFTER_AWARDS,
        },
        ProjectionExpression: "earnedOn, xp, revokedAt",
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) awards.push(item as WeekAward);
    start = page.LastEvaluatedKey;
  } while (start);
  return awards;
}

/** The week item's XP and version as stored; undefined without one. */
export async function storedWeek(
  table: WeekTable,
  userId: string,
  week: string,
): Promise<{ xp: number; version: number } | undefined> {
  const { Item } = await table.dynamo.send(
    new GetCommand({
      TableName: table.tableName,
      Key: weekKey(userId, week),
      ProjectionExpression: "xp, version",
      ConsistentRead: true,
    }),
  );
  if (typeof Item?.version !== "number") return undefined;
  return { xp: typeof Item.xp === "number" ? Item.xp : 0, version: Item.version };
}

/**
 * One reader's week summed again and put: read the item's version, then the awards, then put the
 * total on condition that the version has not moved. A writer that lost the race sums again, so
 * the last put always counts every award written before it read. Returns the XP put and the XP
 * it replaced.
 */
export async function writeWeek(
  table: WeekTable,
  userId: string,
  week: string,
): Promise<{ xp: number; was: number | undefined }> {
  const clock = table.clock ?? Date.now;
  for (let attempt = 1; ; attempt++) {
    const stored = await storedWeek(table, userId, week);
    const xp = weekXpOf(await awardsSince(table, userId, week), week);
    try {
      await table.dynamo.send(
        new PutCommand({
          TableName: table.tableName,
          Item: weekItemOf({
            userId,
            week,
            xp,
            version: (stored?.version ?? 0) + 1,
            updatedAt: new Date(clock()).toISOString(),
            shards: table.shards,
            keepWeeks: table.keepWeeks,
          }),
          ...weekPutCondition(stored?.version),
        }),
      );
      return { xp, was: stored?.xp };
    } catch (error) {
      if (!isConditionFailure(error) || attempt === WRITE_ATTEMPTS) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}
