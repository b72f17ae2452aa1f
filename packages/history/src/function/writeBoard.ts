import { isoWeekOf, userOfKey, weekExpiresAt } from "@rewards/core";
import { describeError, writeWeek } from "@rewards/core/aws";
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

/** Every week the batch touched, each reader's weeks in turn; a reader whose week fails is reported. */
export async function writeBoard(
  deps: HistoryDeps,
  weeks: ReadonlyMap<string, ReadonlySet<string>>,
  limit: ReturnType<typeof pLimit>,
): Promise<BoardWritten> {
  const failed = new Map<string, string>();
  let written = 0;
  const table = {
    dynamo: deps.dynamo,
    tableName: deps.tableName,
    shards: deps.boardShards ?? DEFAULT_BOARD_SHARDS,
    keepWeeks: deps.boardWeeks ?? DEFAULT_BOARD_WEEKS,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
  await Promise.all(
    [...weeks].map(([userId, userWeeks]) =>
      limit(async () => {
        for (const week of userWeeks)
          try {
            await writeWeek(table, userId, week);
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
