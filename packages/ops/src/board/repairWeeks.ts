import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isoWeekOf, isoWeekPlus, weekExpiresAt } from "@rewards/core";
import { describeError, rebuildWeek, type WeekTable } from "@rewards/core/aws";
import { everyReader } from "../progress/repairProgress";

export interface RepairWeeksOptions {
  tableName: string;
  /** One reader; undefined: every reader with a profile (a scan). */
  userId?: string | undefined;
  /** Read and compare, write nothing. */
  dryRun: boolean;
  /** REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS, as the history's writer runs with them. */
  shards: number;
  keepWeeks: number;
  /** Epoch ms: which weeks are still kept. Date.now by default. */
  now?: () => number;
  /**
   * Readers left out (a dry run of `history rebuild` leaves out those whose history it would
   * change: their weeks compared with the history as it stands would say nothing true).
   */
  skip?: ReadonlySet<string>;
}

/** A week whose item was not what the history makes (`from` 0: no item; XP may be equal while the awards it names were not). */
export interface WeekChange {
  week: string;
  from: number;
  to: number;
}

export interface ReaderWeeks {
  userId: string;
  changed: WeekChange[];
  failed?: string;
}

export interface WeeksReport {
  dryRun: boolean;
  readers: ReaderWeeks[];
  totals: { readers: number; weeksChanged: number; failed: number; skipped: number };
}

/** The weeks still kept at `nowMs`, oldest first: the current one and the `keepWeeks` before it. */
export function keptWeeks(nowMs: number, keepWeeks: number): string[] {
  const current = isoWeekOf(nowMs);
  return Array.from({ length: keepWeeks + 1 }, (_, i) => isoWeekPlus(current, i - keepWeeks)).filter(
    (week) => weekExpiresAt(week, keepWeeks) * 1000 > nowMs,
  );
}

/**
 * Every kept week of a reader made again from the history (docs/board.md#repair) and, where the
 * item differs, put under the writers' lock (so beside live traffic no award applied meanwhile is
 * lost). Idempotent: a week already right is read only.
 */
export async function repairWeeks(
  dynamo: DynamoDBDocumentClient,
  options: RepairWeeksOptions,
): Promise<WeeksReport> {
  const now = options.now ?? Date.now;
  const table: WeekTable = {
    dynamo,
    tableName: options.tableName,
    shards: options.shards,
    keepWeeks: options.keepWeeks,
    clock: now,
  };
  const readers: ReaderWeeks[] = [];
  const ids = options.userId === undefined ? everyReader(dynamo, options.tableName) : [options.userId];
  let skipped = 0;
  for await (const userId of ids) {
    if (options.skip?.has(userId)) {
      skipped++;
      continue;
    }
    const changed: WeekChange[] = [];
    try {
      for (const week of keptWeeks(now(), options.keepWeeks)) {
        const rebuilt = await rebuildWeek(table, userId, week, options.dryRun);
        if (!rebuilt.right) changed.push({ week, from: rebuilt.was, to: rebuilt.xp });
      }
      readers.push({ userId, changed });
    } catch (error) {
      readers.push({ userId, changed, failed: describeError(error) });
    }
  }
  readers.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return {
    dryRun: options.dryRun,
    readers,
    totals: {
      readers: readers.length,
      weeksChanged: readers.reduce((sum, reader) => sum + reader.changed.length, 0),
      failed: readers.filter((reader) => reader.failed !== undefined).length,
      skipped,
    },
  };
}
