import { setTimeout as sleep } from "node:timers/promises";
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  isoWeekOf,
  userOfKey,
  type WeekAward,
  weekExpiresAt,
  weekHistoryStart,
  weekItemOf,
  weekKey,
  weekPutCondition,
  weekXpOf,
} from "@rewards/core";
import { describeError, isConditionFailure } from "@rewards/core/aws";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import type pLimit from "p-limit";
import type { HistoryDeps } from "./historyDeps";

/** What writing a batch's weeks did. */
export interface BoardWritten {
  /** Week items put. */
  weeks: number;
  /** Readers whose week failed, with why: their records are retried. */
  failed: Map<string, string>;
}

/** Puts lost to a concurrent writer of the same week before the reader's records are retried. */
const WRITE_ATTEMPTS = 5;
/** Past the last award key: `AWARD$` sorts right after every `AWARD#…`. */
const AFTER_AWARDS = "AWARD$";

/**
 * The weeks a batch's history items touched, per reader: the ISO week of each item's `earnedOn`,
 * except a week already past its retention (its items are gone or going, and an entry written now
 * would outlive nothing). Pure.
 */
export function weeksTouched(
  items: Iterable<{ pk: string; earnedOn: string }>,
  nowMs: number,
  keepWeeks: number,
): Map<string, Set<string>> {
  const weeks = new Map<string, Set<string>>();
  for (const item of items) {
    const userId = userOfKey(item.pk);
    const week = isoWeekOf(item.earnedOn);
    if (userId === undefined || weekExpiresAt(week, keepWeeks) * 1000 <= nowMs) continue;
    weeks.set(userId, (weeks.get(userId) ?? new Set()).add(week));
  }
  return weeks;
}

/** Every history item that can hold an award earned in `week`, read consistently, page by page. */
async function weekAwards(deps: HistoryDeps, userId: string, week: string): Promise<WeekAward[]> {
  const awards: WeekAward[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.dynamo.send(
      new QueryCommand({
        TableName: deps.tableName,
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

/**
 * One reader's week summed again from the history and put (docs/board.md#exactly-once): read the
 * item's version, then the awards, then put the total on condition that the version has not
 * moved. A writer that lost the race sums again, so the last put always counts every award
 * written before it was read.
 */
async function writeWeek(deps: HistoryDeps, userId: string, week: string): Promise<void> {
  const clock = deps.clock ?? Date.now;
  for (let attempt = 1; ; attempt++) {
    const read = await deps.dynamo.send(
      new GetCommand({
        TableName: deps.tableName,
        Key: weekKey(userId, week),
        ProjectionExpression: "version",
        ConsistentRead: true,
      }),
    );
    const version = typeof read.Item?.version === "number" ? read.Item.version : undefined;
    const xp = weekXpOf(await weekAwards(deps, userId, week), week);
    try {
      await deps.dynamo.send(
        new PutCommand({
          TableName: deps.tableName,
          Item: weekItemOf({
            userId,
            week,
            xp,
            version: (version ?? 0) + 1,
            updatedAt: new Date(clock()).toISOString(),
            shards: deps.boardShards ?? DEFAULT_BOARD_SHARDS,
            keepWeeks: deps.boardWeeks ?? DEFAULT_BOARD_WEEKS,
          }),
          ...weekPutCondition(version),
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailure(error) || attempt === WRITE_ATTEMPTS) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}

/** Every week the batch touched, each reader's weeks in turn; a reader whose week fails is reported. */
export async function writeBoard(
  deps: HistoryDeps,
  weeks: ReadonlyMap<string, ReadonlySet<string>>,
  limit: ReturnType<typeof pLimit>,
): Promise<BoardWritten> {
  const failed = new Map<string, string>();
  let written = 0;
  await Promise.all(
    [...weeks].map(([userId, userWeeks]) =>
      limit(async () => {
        for (const week of userWeeks)
          try {
            await writeWeek(deps, userId, week);
            written++;
          } catch (error) {
            failed.set(userId, `week ${week}: ${describeError(error)}`);
            return;
          }
      }),
    ),
  );
  return { weeks: written, failed };
}
