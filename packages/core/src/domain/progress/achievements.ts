import { BUILTIN_RULES } from "../rules/builtinRules";
import type { EventType } from "../rules/rules";
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

/** What an achievement reads: a count of one type reaching a number, or a run of kept days. */
export type AchievementCondition = { count: EventType; reaches: number } | { streak: number };

interface FixedAchievement {
  id: string;
  title: string;
  when: AchievementCondition;
}

/**
 * The fixed achievements, in the order they are listed; `level-<n>` follow them: the built-in
 * rules' (version 0, rules/builtinRules.ts), the one list of them.
 */
export const FIXED_ACHIEVEMENTS: readonly FixedAchievement[] = BUILTIN_RULES.achievements;

const LEVEL_ID = /^level-([1-9][0-9]*)$/;

/** Whether `progress` meets `when`. */
export function meets(when: AchievementCondition, progress: Progress): boolean {
  if ("streak" in when) return progress.longestRun >= when.streak;
  return (progress.counts[when.count] ?? 0) >= when.reaches;
}

/** Every achievement `progress` meets at this one instant, fixed ones first, then `level-2` … `level-<n>`. */
export function achievementsDue(progress: Progress): string[] {
  const fixed = FIXED_ACHIEVEMENTS.filter(({ when }) => meets(when, progress)).map(({ id }) => id);
  const levels: string[] = [];
  for (let level = 2; level <= levelOf(progress.xp).level; level++) levels.push(`level-${level}`);
  return [...fixed, ...levels];
}

/** Whether `id` names an achievement (a fixed one, or `level-<n>` with n ≥ 2). */
export function isAchievementId(id: string): boolean {
  const level = LEVEL_ID.exec(id);
  return (
    FIXED_ACHIEVEMENTS.some((achievement) => achievement.id === id) ||
    (level !== null && Number(level[1]) >= 2)
  );
}

/** An achievement's title, as the docs list them. */
export function achievementTitle(id: string): string {
  const fixed = FIXED_ACHIEVEMENTS.find((achievement) => achievement.id === id);
  if (fixed) return fixed.title;
  const level = LEVEL_ID.exec(id);
  return level ? `Level ${level[1]}` : id;
}
