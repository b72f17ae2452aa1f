import { BUILTIN_RULES } from "../rules/builtinRules";
import { levelOf } from "./levels";

/**
 * Achievements (docs/reading.md#achievements): each earned at most once per reader, ever, and
 * never taken back. The table below says what each reads; when one is earned is decided on the
 * reader's timeline (achievementTimeline.ts). Pure.
 */

/** What a reader has at one instant, as far as achievements are concerned. */
export interface Progress {
  /** Awards per event type (a type with none may be absent). */
  counts: Readonly<Record<string, number>>;
  xp: number;
  /** The longest run of consecutive kept days. */
  longestRun: number;
}

/** What an achievement reads: a count of one type reaching a number, a run of kept days, or XP. */
export type AchievementCondition = { count: string; reaches: number } | { streak: number } | { xp: number };

/**
 * An achievement as the timeline earns it: its condition and, for one a published version added
 * or retired (docs/rules.md#new-and-retired-achievements), the instants it counts between —
 * `since` (the adding version's `publishedAt`) and `until` (the retiring one's).
 */
export interface TimedAchievement {
  id: string;
  title: string;
  description?: string | undefined;
  when: AchievementCondition;
  since?: string | undefined;
  until?: string | undefined;
}

type FixedAchievement = TimedAchievement;

/**
 * The fixed achievements, in the order they are listed; `level-<n>` follow them: the built-in
 * rules' (version 0, rules/builtinRules.ts), the one list of them.
 */
export const FIXED_ACHIEVEMENTS: readonly FixedAchievement[] = BUILTIN_RULES.achievements;

const LEVEL_ID = /^level-([1-9][0-9]*)$/;

/** Whether `progress` meets `when`. */
export function meets(when: AchievementCondition, progress: Progress): boolean {
  if ("streak" in when) return progress.longestRun >= when.streak;
  if ("xp" in when) return progress.xp >= when.xp;
  return (progress.counts[when.count] ?? 0) >= when.reaches;
}

/**
 * Every achievement `progress` meets at this one instant, the listed ones first (by default the
 * built-in ones; a retired one never), then `level-2` … `level-<n>`.
 */
export function achievementsDue(
  progress: Progress,
  achievements: readonly TimedAchievement[] = FIXED_ACHIEVEMENTS,
): string[] {
  const fixed = achievements
    .filter(({ when, until }) => until === undefined && meets(when, progress))
    .map(({ id }) => id);
  const levels: string[] = [];
  for (let level = 2; level <= levelOf(progress.xp).level; level++) levels.push(`level-${level}`);
  return [...fixed, ...levels];
}

/** A site's own achievement id (docs/rules.md): what a rules document may name one. */
const SITE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Whether `id` names an achievement: `level-<n>` with n ≥ 2, a built-in one, or one a site's
 * rules may define (an id of the rules' form that is not a `level-` one).
 */
export function isAchievementId(id: string): boolean {
  if (id.startsWith("level-")) {
    const level = LEVEL_ID.exec(id);
    return level !== null && Number(level[1]) >= 2;
  }
  return FIXED_ACHIEVEMENTS.some((achievement) => achievement.id === id) || SITE_ID.test(id);
}

/** An achievement's title: the version's (`achievements`, by default the built-in ones), or `Level <n>`. */
export function achievementTitle(
  id: string,
  achievements: readonly TimedAchievement[] = FIXED_ACHIEVEMENTS,
): string {
  const fixed = achievements.find((achievement) => achievement.id === id);
  if (fixed) return fixed.title;
  const level = LEVEL_ID.exec(id);
  return level ? `Level ${level[1]}` : id;
}
