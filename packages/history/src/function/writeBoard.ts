import { isoWeekOf, userOfKey, type WeekFact, weekExpiresAt } from "@rewards/core";
import { applyToWeek, callField, describeError } from "@rewards/core/aws";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import type pLimit from "p-limit";
import type { HistoryDeps } from "./historyDeps";
import type { ReaderFailure } from "./writeProgress";

/** What writing a batch's weeks did. */
export interface BoardWritten {
  /** Week items put (a week every fact of which was already there is read, not put). */
  weeks: number;
  /** Readers whose week failed, with why: their records are retried. */
  failed: Map<string, ReaderFailure>;
}

/** A history item the batch left standing: as written, or overtaken by a revocation (its put's condition failed). */
export interface StandingItem {
  pk: string;
  id: string;
  earnedOn: string;
  xp: number;
  revokedAt?: string | undefined;
  overtaken: boolean;
}

/**
 * The facts each reader's weeks get from a batch: every standing history item, by its user and
 * the ISO week of its `earnedOn`; an overtaken item is a revocation (the table holds it revoked).
 * A week already past its retention is left out (its items are gone or going). Pure.
 */
export function weekFactsOf(
  items: Iterable<StandingItem>,
  nowMs: number,
  keepWeeks: number,
): Map<string, Map<string, WeekFact[]>> {
  const readers = new Map<string, Map<string, WeekFact[]>>();
  for (const item of items) {
    const userId = userOfKey(item.pk);
    const week = isoWeekOf(item.earnedOn);
    if (userId === undefined || weekExpiresAt(week, keepWeeks) * 1000 <= nowMs) continue;
    const weeks = readers.get(userId) ?? new Map<string, WeekFact[]>();
    const facts = weeks.get(week) ?? [];
    facts.push({ id: item.id, xp: item.xp, revoked: item.overtaken || item.revokedAt !== undefined });
    weeks.set(week, facts);
    readers.set(userId, weeks);
  }
  return readers;
}

/** Every week the batch touched, each reader's weeks in turn; a reader whose week fails is reported. */
export async function writeBoard(
  deps: HistoryDeps,
  readers: ReadonlyMap<string, ReadonlyMap<string, readonly WeekFact[]>>,
  limit: ReturnType<typeof pLimit>,
): Promise<BoardWritten> {
  const failed = new Map<string, ReaderFailure>();
  let written = 0;
  const table = {
    dynamo: deps.dynamo,
    tableName: deps.tableName,
    shards: deps.boardShards ?? DEFAULT_BOARD_SHARDS,
    keepWeeks: deps.boardWeeks ?? DEFAULT_BOARD_WEEKS,
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
  await Promise.all(
    [...readers].map(([userId, weeks]) =>
      limit(async () => {
        for (const [week, facts] of weeks)
          try {
            if ((await applyToWeek(table, userId, week, facts)).written) written++;
          } catch (error) {
            failed.set(userId, { reason: `week ${week}: ${describeError(error)}`, ...callField(error) });
            return;
          }
      }),
    ),
  );
  return { weeks: written, failed };
}
