/**
 * Streaks (docs/reading.md#streaks). A kept day is the `day` of a paid, unrevoked `streak.day`
 * award: the producer's calendar day for that reader. The table keeps a reader's kept days as
 * one set of day numbers (days since 1970-01-01), which adding a day twice or in any order
 * leaves the same; a streak is read off that set. Pure.
 */

const DAY_MS = 86_400_000;

/**
 * The day an award keeps for streaks: what its guard recorded (`keepsDay`, a `keepsStreak`
 * type's day under a published version), else a built-in `streak.day`'s `day`. Never re-derived
 * from a version of the rules (docs/rules.md#facts-are-recorded). Pure.
 */
export function keptDayOf(award: {
  type: string;
  keepsDay?: string | undefined;
  data?: Readonly<Record<string, string | number>> | undefined;
}): string | undefined {
  if (award.keepsDay !== undefined) return award.keepsDay;
  const day = award.type === "streak.day" ? award.data?.day : undefined;
  return typeof day === "string" ? day : undefined;
}

/** `2026-12-03` → its day number (days since 1970-01-01). */
export function dayNumberOf(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

/** A day number → `YYYY-MM-DD`. */
export function dayOfNumber(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

export interface Streak {
  /** Consecutive kept days ending at `lastDay`, when `lastDay` is today or yesterday (else 0). */
  current: number;
  /** The longest run of consecutive kept days ever kept. */
  longest: number;
  /** The latest kept day, `YYYY-MM-DD`; absent when no day is kept. */
  lastDay?: string;
}

/** The runs of consecutive days in `days` (any order, repeats allowed), oldest first: [first, length]. */
function runsOf(days: Iterable<number>): Array<[number, number]> {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const day of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === day) last[1] += 1;
    else runs.push([day, 1]);
  }
  return runs;
}

/** The longest run of consecutive days in `days`; 0 for none. */
export function longestRun(days: Iterable<number>): number {
  return runsOf(days).reduce((longest, [, length]) => Math.max(longest, length), 0);
}

/**
 * The streak of `days` on the day `today` (a day number in the reader's zone): the last run is
 * current while its last day is today or yesterday; a last day after today (a producer whose
 * calendar is ahead of the zone asked for) is neither, so the streak is not current there.
 */
export function streakOf(days: Iterable<number>, today: number): Streak {
  const runs = runsOf(days);
  const last = runs[runs.length - 1];
  if (!last) return { current: 0, longest: 0 };
  const lastDayNumber = last[0] + last[1] - 1;
  return {
    current: lastDayNumber === today || lastDayNumber === today - 1 ? last[1] : 0,
    longest: runs.reduce((longest, [, length]) => Math.max(longest, length), 0),
    lastDay: dayOfNumber(lastDayNumber),
  };
}
