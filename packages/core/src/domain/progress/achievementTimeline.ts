import { epochMsOfRfc3339 } from "../events/rfc3339";
import { FIXED_ACHIEVEMENTS, meets, type Progress, type TimedAchievement } from "./achievements";
import { dayNumberOf, keptDayOf, longestRun } from "./keptDays";
import { levelOf } from "./levels";

/**
 * When an achievement is earned, exactly (docs/reading.md#when-exactly): on the reader's
 * timeline — their awards, each at its commit (`awardedAt`), and their revocations, each at its
 * commit (`revokedAt`) — an achievement is earned at the first instant at which the state it
 * reads meets its condition: counts and XP as they stood then, kept days as kept then. The
 * timeline is read off the instants the guards record, so the writer, a replay, `history
 * rebuild` and `backfill` all decide the same, whatever order or number the records came in.
 * Pure: the one decision every one of them calls.
 */

/** One award on the reader's timeline: what its guard (or history item) records. */
export interface TimelineAward {
  /** Its `reward.granted` id. */
  grantId: string;
  type: string;
  /** XP paid. */
  xp: number;
  awardedAt: string;
  /** Its place in its transaction (0, 1, …); absent when the guard did not record it. */
  seq?: number | undefined;
  revokedAt?: string | undefined;
  /** The day (a day number) it keeps for streaks while it stands; absent for none. */
  keepsDay?: number | undefined;
  /** Whether it announced a `reward.granted`: false only for an award the daily cap cut to 0. */
  announced: boolean;
}

/** An achievement as the timeline earns it. */
export interface EarnedOnTimeline {
  achievement: string;
  /** The instant of the award whose commit crossed it. */
  earnedAt: string;
  /** That award's `reward.granted` id; absent when it announced nothing. */
  grantId?: string;
}

interface TimelineEvent {
  at: number;
  /** Awards before revocations at one instant (a revocation never precedes its award). */
  kind: 0 | 1;
  seq: number;
  award: TimelineAward;
}

/** The timeline's order: instant; at one instant awards (in their transaction's order) before revocations. */
function byTimeline(a: TimelineEvent, b: TimelineEvent): number {
  return (
    a.at - b.at ||
    a.kind - b.kind ||
    a.seq - b.seq ||
    (a.award.grantId < b.award.grantId ? -1 : a.award.grantId > b.award.grantId ? 1 : 0)
  );
}

/**
 * The events of `awards`: each award once (copies of one award — one grant id — are one; a
 * revoked copy is the later state of it), and each revocation, never before its own award.
 */
export function timelineEvents(awards: readonly TimelineAward[]): TimelineEvent[] {
  const unique = new Map<string, TimelineAward>();
  for (const award of awards)
    if (!unique.has(award.grantId) || award.revokedAt !== undefined) unique.set(award.grantId, award);
  const events: TimelineEvent[] = [];
  for (const award of unique.values()) {
    const at = epochMsOfRfc3339(award.awardedAt);
    events.push({ at, kind: 0, seq: award.seq ?? 0, award });
    if (award.revokedAt !== undefined)
      events.push({
        at: Math.max(at, epochMsOfRfc3339(award.revokedAt)),
        kind: 1,
        seq: award.seq ?? 0,
        award,
      });
  }
  return events.sort(byTimeline);
}

/** The length of the run of kept days through `day`. */
function runThrough(kept: ReadonlyMap<number, number>, day: number): number {
  let first = day;
  let last = day;
  while ((kept.get(first - 1) ?? 0) > 0) first--;
  while ((kept.get(last + 1) ?? 0) > 0) last++;
  return last - first + 1;
}

/**
 * Every achievement the timeline of `awards` earns, in the order earned, each at the first award
 * at which its condition held. Revocations lower counts, XP and kept days from their instant on
 * and never take back what was earned before it; a day is kept while any standing award keeps it.
 *
 * `achievements` (by default the built-in ones) may carry instants (docs/rules.md#new-and-retired-achievements):
 * one added by a version counts from its `since` on — a reader who already meets it then earns it
 * at that instant, with no grant — and one retired counts only before its `until`.
 */
export function achievementsOnTimeline(
  awards: readonly TimelineAward[],
  achievements: readonly TimedAchievement[] = FIXED_ACHIEVEMENTS,
): EarnedOnTimeline[] {
  const counts = new Map<string, number>();
  const kept = new Map<number, number>();
  let xp = 0;
  const earned: EarnedOnTimeline[] = [];
  const done = new Set<string>();
  const earn = (achievement: string, earnedAt: string, grantId?: string) => {
    if (done.has(achievement)) return;
    done.add(achievement);
    earned.push({ achievement, earnedAt, ...(grantId === undefined ? {} : { grantId }) });
  };
  const windows = achievements.map((achievement) => ({
    achievement,
    since: achievement.since === undefined ? Number.NEGATIVE_INFINITY : epochMsOfRfc3339(achievement.since),
    until: achievement.until === undefined ? Number.POSITIVE_INFINITY : epochMsOfRfc3339(achievement.until),
  }));
  // Added later: met at its `since` by what stood then, earned then.
  const opening = windows.filter(({ since }) => Number.isFinite(since)).sort((a, b) => a.since - b.since);
  const openBefore = (at: number) => {
    while (opening.length > 0 && (opening[0] as (typeof opening)[number]).since <= at) {
      const { achievement, since, until } = opening.shift() as (typeof opening)[number];
      const standing = [...kept].filter(([, awards]) => awards > 0).map(([day]) => day);
      const then: Progress = { counts: Object.fromEntries(counts), xp, longestRun: longestRun(standing) };
      if (since < until && meets(achievement.when, then)) earn(achievement.id, achievement.since as string);
    }
  };
  for (const { at, kind, award } of timelineEvents(awards)) {
    openBefore(at);
    const step = kind === 0 ? 1 : -1;
    counts.set(award.type, (counts.get(award.type) ?? 0) + step);
    xp += step * award.xp;
    // Stryker disable next-line ConditionalExpression: equivalent (a count kept under no day is never read by runThrough)
    if (award.keepsDay !== undefined) kept.set(award.keepsDay, (kept.get(award.keepsDay) ?? 0) + step);
    // A revocation only lowers what the conditions read: nothing can first hold at one.
    // Stryker disable next-line ConditionalExpression: equivalent (every condition met after a revocation was met before it)
    if (kind === 1) continue;
    // Stryker disable next-line ConditionalExpression: equivalent (a run through no day is 1, below every streak's length)
    const through = award.keepsDay === undefined ? 0 : runThrough(kept, award.keepsDay);
    const now: Progress = { counts: Object.fromEntries(counts), xp, longestRun: through };
    const grant = award.announced ? award.grantId : undefined;
    for (const { achievement, since, until } of windows)
      if (since <= at && at < until && meets(achievement.when, now))
        earn(achievement.id, award.awardedAt, grant);
    for (let level = 2; level <= levelOf(xp).level; level++) earn(`level-${level}`, award.awardedAt, grant);
  }
  openBefore(Number.POSITIVE_INFINITY);
  return earned;
}

/** What the timeline reads of a history item (docs/history.md#the-item). */
export interface TimelineSource {
  id: string;
  type: string;
  xp: number;
  requestedXp?: number | undefined;
  awardedAt: string;
  revokedAt?: string | undefined;
  seq?: number | undefined;
  data: Readonly<Record<string, string | number>>;
  keepsDay?: string | undefined;
}

/**
 * A history item on the timeline. A `streak.day` award keeps its `day`; an award the cap cut to
 * 0 (`requestedXp` with 0 paid) announced nothing, so it is never an achievement's `grantId`.
 */
export function timelineAwardOf(item: TimelineSource): TimelineAward {
  const day = keptDayOf(item);
  return {
    grantId: item.id,
    type: item.type,
    xp: item.xp,
    awardedAt: item.awardedAt,
    seq: item.seq,
    revokedAt: item.revokedAt,
    keepsDay: day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) ? dayNumberOf(day) : undefined,
    announced: !(item.xp === 0 && item.requestedXp !== undefined),
  };
}

/** What the timeline's standing awards add up to: the profile's `awards` and `xp` once every award is in it. */
export function timelineTotals(awards: readonly TimelineAward[]): { awards: number; xp: number } {
  const standing = awards.filter((award) => award.revokedAt === undefined);
  return { awards: standing.length, xp: standing.reduce((sum, award) => sum + award.xp, 0) };
}
