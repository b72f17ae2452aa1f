import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  isoWeekOf,
  isoWeekPlus,
  sameWeek,
  type WeekAward,
  weekExpiresAt,
  weekKey,
  weekOfHistory,
  weekStateOf,
} from "@rewards/core";
import { describeError, rebuildWeek, type WeekTable } from "@rewards/core/aws";
import { withPending } from "../progress/readerState";
import { forEachReader, readersOf } from "../repair/readerPass";
import type { ReaderItems, TableSnapshot } from "../repair/tableSnapshot";

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
  /**
   * The table as one pass read it (readTable): a week it shows right is left alone unread; one it
   * shows wrong is made again from the history read consistently, under the writers' lock (a dry
   * run says what the snapshot shows, with `pending`).
   */
  snapshot?: TableSnapshot | undefined;
  /** By user: history items the rebuild wrote (or, in a dry run, would write), newer than the snapshot. */
  pending?: ReadonlyMap<string, ReadonlyArray<Record<string, unknown> & { sk: string }>>;
  /** Told after each reader: readers done, readers in all (0 while not known). */
  onProgress?: (done: number, total: number) => void;
  /** Stops before the next reader (Ctrl-C): the report then says `interrupted`. */
  signal?: AbortSignal | undefined;
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
  /** Stopped before every reader was repaired (Ctrl-C): a second run finishes. */
  interrupted: boolean;
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
  const { snapshot } = options;
  const pass = readersOf(dynamo, options);
  let skipped = 0;
  const interrupted = await forEachReader(pass.ids, options.signal, async (userId) => {
    if (options.skip?.has(userId)) skipped++;
    else readers.push(await repairReaderWeeks(table, options, userId, snapshot?.readers.get(userId)));
    options.onProgress?.(readers.length + skipped, pass.total);
  });
  readers.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return {
    dryRun: options.dryRun,
    interrupted,
    readers,
    totals: {
      readers: readers.length,
      weeksChanged: readers.reduce((sum, reader) => sum + reader.changed.length, 0),
      failed: readers.filter((reader) => reader.failed !== undefined).length,
      skipped,
    },
  };
}

/** A history item as the week reads it (awardsSince's projection). */
const weekAwardOf = (item: Record<string, unknown>): WeekAward => ({
  id: String(item.id),
  earnedOn: String(item.earnedOn),
  xp: Number(item.xp),
  ...(typeof item.revokedAt === "string" ? { revokedAt: item.revokedAt } : {}),
});

async function repairReaderWeeks(
  table: WeekTable,
  options: RepairWeeksOptions,
  userId: string,
  items: ReaderItems | undefined,
): Promise<ReaderWeeks> {
  const changed: WeekChange[] = [];
  const now = table.clock ?? Date.now;
  const history = items && withPending(items.history, options.pending?.get(userId));
  try {
    for (const week of keptWeeks(now(), options.keepWeeks)) {
      if (history !== undefined) {
        // The snapshot decides which weeks to look at; a dry run says what it shows.
        const wanted = weekOfHistory(history.map(weekAwardOf), week);
        const sk = weekKey(userId, week).sk;
        const stored = weekStateOf(items?.weeks.find((item) => item.sk === sk));
        if (sameWeek(stored, wanted)) continue;
        if (options.dryRun) {
          changed.push({ week, from: stored.xp, to: wanted.xp });
          continue;
        }
      }
      const rebuilt = await rebuildWeek(table, userId, week, options.dryRun);
      if (!rebuilt.right) changed.push({ week, from: rebuilt.was, to: rebuilt.xp });
    }
    return { userId, changed };
  } catch (error) {
    return { userId, changed, failed: describeError(error) };
  }
}
