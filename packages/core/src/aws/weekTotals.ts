import { setTimeout as sleep } from "node:timers/promises";
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  EMPTY_WEEK,
  sameWeek,
  type WeekAward,
  type WeekFact,
  type WeekState,
  weekAfter,
  weekHistoryStart,
  weekItemOf,
  weekKey,
  weekOfHistory,
  weekPutCondition,
  weekStateOf,
} from "../domain";
import { isConditionFailure } from "./classifyError";

/**
 * A reader's week item written under an optimistic lock (docs/board.md#exactly-once): by the
 * history's writer after each batch (`applyToWeek`), and by `rewards history rebuild` / `backfill`
 * from the history itself (`rebuildWeek`).
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

/** The week item as stored (consistently), with its version; the empty week without one. */
export async function storedWeek(
  table: WeekTable,
  userId: string,
  week: string,
): Promise<WeekState & { version?: number }> {
  const { Item } = await table.dynamo.send(
    new GetCommand({ TableName: table.tableName, Key: weekKey(userId, week), ConsistentRead: true }),
  );
  return weekStateOf(Item);
}

/**
 * Read the week, change it, put it on condition that no other writer put it meanwhile; the loser
 * reads again. `change` returns undefined when there is nothing to write.
 */
async function changeWeek(
  table: WeekTable,
  userId: string,
  week: string,
  change: (stored: WeekState) => Promise<WeekState | undefined>,
): Promise<{ state: WeekState; was: WeekState; written: boolean }> {
  const clock = table.clock ?? Date.now;
  for (let attempt = 1; ; attempt++) {
    const stored = await storedWeek(table, userId, week);
    const state = await change(stored);
    if (state === undefined) return { state: stored, was: stored, written: false };
    try {
      await table.dynamo.send(
        new PutCommand({
          TableName: table.tableName,
          Item: weekItemOf({
            userId,
            week,
            state,
            version: (stored.version ?? 0) + 1,
            updatedAt: new Date(clock()).toISOString(),
            shards: table.shards,
            keepWeeks: table.keepWeeks,
          }),
          ...weekPutCondition(stored.version),
        }),
      );
      return { state, was: stored, written: true };
    } catch (error) {
      if (!isConditionFailure(error) || attempt === WRITE_ATTEMPTS) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}

/**
 * The batch's awards and revocations of one reader's week, applied (weekAfter): one read, and one
 * put unless every fact was already there (a copy or a replay costs the read alone).
 */
export async function applyToWeek(
  table: WeekTable,
  userId: string,
  week: string,
  facts: readonly WeekFact[],
): Promise<{ xp: number; written: boolean }> {
  const { state, written } = await changeWeek(table, userId, week, async (stored) => {
    const after = weekAfter(stored, facts);
    return after.changed ? after : undefined;
  });
  return { xp: state.xp, written };
}

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
        ProjectionExpression: "id, earnedOn, xp, revokedAt",
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) awards.push(item as WeekAward);
    start = page.LastEvaluatedKey;
  } while (start);
  return awards;
}

/**
 * One reader's week made again from the history (read after the item, so the put's lock covers
 * it): written only when the stored week differs (`right`: it did not). Returns the XP before and after.
 */
export async function rebuildWeek(
  table: WeekTable,
  userId: string,
  week: string,
  dryRun = false,
): Promise<{ xp: number; was: number; right: boolean; written: boolean }> {
  let wanted: WeekState = EMPTY_WEEK;
  let right = true;
  const { was, written } = await changeWeek(table, userId, week, async (stored) => {
    wanted = weekOfHistory(await awardsSince(table, userId, week), week);
    right = sameWeek(stored, wanted);
    return right || dryRun ? undefined : wanted;
  });
  return { xp: wanted.xp, was: was.xp, right, written };
}
