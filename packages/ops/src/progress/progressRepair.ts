import { achievementsDue, dayNumberOf, eventTypes, longestRun } from "@rewards/core";
import type { ReaderState } from "./readerState";

/** What a reader's progress needs to be right (docs/operations.md, "Counts, streaks and achievements"). */
export interface ProgressRepair {
  /** Day numbers an unrevoked streak.day history item keeps and the set lacks. */
  keep: number[];
  /** Day numbers the set holds whose streak.day history item is revoked (and none unrevoked). */
  unkeep: number[];
  /** Achievements the reader's state earns and the table lacks. */
  achieve: string[];
  /** Achievements earned (items, or to be put) that the progress item does not list. */
  list: string[];
  /**
   * For a profile no transaction has counted yet (no count attribute: a reader paid before
   * counts existed, and paid or revoked nothing since), the counts per type its history shows,
   * when the history accounts for every award the profile counts (their sum is its `awards`);
   * `incomplete` when it does not (items past retention, or not written yet): nothing is
   * written. Undefined: nothing to set (a counted profile is the transactions' to keep).
   */
  counts: Record<string, number> | "incomplete" | undefined;
}

/**
 * The repair of one reader's derived progress, from what the table holds (readerState). Safe
 * beside live traffic: a day is added only for an unrevoked item and removed only for a revoked
 * one (a day whose item is not written yet, or is past retention, is left as it is), and an
 * achievement is only ever added. Pure.
 */
export function progressRepairOf(state: ReaderState, options: { counts: boolean }): ProgressRepair {
  const kept = new Set<number>();
  const revoked = new Set<number>();
  const historyCounts: Record<string, number> = Object.fromEntries(eventTypes.map((type) => [type, 0]));
  for (const item of state.history) {
    const standing = item.revokedAt === undefined;
    const type = String(item.type);
    if (standing) historyCounts[type] = (historyCounts[type] ?? 0) + 1;
    const day = (item.data as Record<string, unknown> | undefined)?.day;
    if (type !== "streak.day" || typeof day !== "string") continue;
    (standing ? kept : revoked).add(dayNumberOf(day));
  }
  const keep = [...kept].filter((day) => !state.keptDays.has(day));
  const unkeep = [...state.keptDays].filter((day) => revoked.has(day) && !kept.has(day));
  const days = new Set([...state.keptDays, ...keep].filter((day) => !unkeep.includes(day)));

  let counts: ProgressRepair["counts"];
  const profile = state.profile;
  // Only a profile no transaction has counted yet (no count attribute at all): one that has any
  // is kept by the transactions, and the history cannot tell which of its awards they counted
  // (an award and a revocation of another type inside the writer's lag would balance `awards`).
  const counted = profile !== undefined && eventTypes.some((type) => profile.counts[type] !== undefined);
  if (options.counts && profile && !counted) {
    const total = Object.values(historyCounts).reduce((sum, n) => sum + n, 0);
    counts = total === profile.awards ? historyCounts : "incomplete";
  }
  const progressCounts =
    counts !== undefined && counts !== "incomplete"
      ? counts
      : Object.fromEntries(eventTypes.map((type) => [type, profile?.counts[type] ?? 0]));
  const achieve = achievementsDue({
    counts: progressCounts,
    xp: profile?.xp ?? 0,
    longestRun: longestRun(days),
  }).filter((id) => !state.achievements.has(id));
  const list = [...state.achievements, ...achieve].filter((id) => !state.listed.has(id));
  return { keep, unkeep, achieve, list, counts };
}
