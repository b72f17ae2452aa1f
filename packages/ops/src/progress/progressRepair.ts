import { dayNumberOf, eventTypes, keptDayOf } from "@rewards/core";
import type { ReaderState } from "./readerState";

/** What a reader's progress needs to be right (docs/operations.md, "Counts, streaks and achievements"). */
export interface ProgressRepair {
  /** Day numbers an unrevoked streak.day history item keeps and the set lacks. */
  keep: number[];
  /** The history items that keep them: read again after the ADD, in case a revocation overtook one. */
  keepKeys: Array<{ pk: string; sk: string }>;
  /** Day numbers the set holds whose streak.day history item is revoked (and none unrevoked). */
  unkeep: number[];
  /** Achievements whose item is there and that the progress item does not list. */
  list: string[];
  /**
   * The counts per type to set on the profile: each type's count raised to the number of its
   * standing awards in the history where the profile holds fewer (or none: a reader paid before
   * counts were kept), when the history accounts for every award the profile counts (their sum
   * is its `awards`); `incomplete` when it does not (items past retention, or not written yet):
   * nothing is written. Undefined: every count is at least the history's (right: a count may be
   * above it, never below).
   */
  counts: Record<string, number> | "incomplete" | undefined;
}

/**
 * The repair of one reader's kept days, counts and listed achievements, from what the table
 * holds (readerState); their achievements are decided on their timeline (settleAchievements).
 * Safe beside live traffic: a day is added only for an unrevoked item and removed only for a
 * revoked one (a day whose item is not written yet, or is past retention, is left as it is), and
 * a count is only ever raised. Pure.
 */
export function progressRepairOf(state: ReaderState, options: { counts: boolean }): ProgressRepair {
  const kept = new Map<number, { pk: string; sk: string }>();
  const revoked = new Set<number>();
  const historyCounts: Record<string, number> = Object.fromEntries(eventTypes.map((type) => [type, 0]));
  for (const item of state.history) {
    const standing = item.revokedAt === undefined;
    const type = String(item.type);
    if (standing) historyCounts[type] = (historyCounts[type] ?? 0) + 1;
    // The day it keeps as its item records it (keepsDay), else a built-in streak.day's: never re-derived.
    const day = keptDayOf({
      type,
      keepsDay: typeof item.keepsDay === "string" ? item.keepsDay : undefined,
      data: item.data as Record<string, string | number> | undefined,
    });
    if (day === undefined) continue;
    if (standing) kept.set(dayNumberOf(day), { pk: String(item.pk), sk: String(item.sk) });
    else revoked.add(dayNumberOf(day));
  }
  const keep = [...kept.keys()].filter((day) => !state.keptDays.has(day));
  const unkeep = [...state.keptDays].filter((day) => revoked.has(day) && !kept.has(day));

  let counts: ProgressRepair["counts"];
  const profile = state.profile;
  const below =
    profile !== undefined &&
    eventTypes.some((type) => (profile.counts[type] ?? 0) < (historyCounts[type] ?? 0));
  if (options.counts && profile && below) {
    const total = Object.values(historyCounts).reduce((sum, n) => sum + n, 0);
    counts =
      total === profile.awards
        ? Object.fromEntries(
            eventTypes.map((type) => [type, Math.max(profile.counts[type] ?? 0, historyCounts[type] ?? 0)]),
          )
        : "incomplete";
  }
  const list = [...state.achievements].filter((id) => !state.listed.has(id));
  return {
    keep,
    keepKeys: keep.map((day) => kept.get(day) as { pk: string; sk: string }),
    unkeep,
    list,
    counts,
  };
}
