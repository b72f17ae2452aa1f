import { levelOf } from "./levels";
import type { EventType } from "./rules";
import { eventTypes } from "./rules";

/**
 * Achievements (docs/reading.md#achievements): each earned at most once per reader, ever, and
 * never taken back. Whether one is due is read off the reader's state — counts per type, XP,
 * the longest run of kept days — never off a delivery, so copies, replays and the order of
 * the stream cannot earn one twice or skip one. Pure.
 */

/** What a reader has, as far as achievements are concerned. */
export interface Progress {
  /** Awards per event type (a type with none may be absent). */
  counts: Readonly<Record<string, number>>;
  xp: number;
  /** The longest run of consecutive kept days. */
  longestRun: number;
}

interface FixedAchievement {
  id: string;
  title: string;
  /** The award type whose award can cross it (for its `grantId`). */
  crossedBy: EventType;
  earned(progress: Progress): boolean;
}

const count = (progress: Progress, type: EventType) => progress.counts[type] ?? 0;

const FIXED: readonly FixedAchievement[] = [
  {
    id: "first-article",
    title: "First article",
    crossedBy: "article.completed",
    earned: (p) => count(p, "article.completed") >= 1,
  },
  {
    id: "articles-10",
    title: "Ten articles",
    crossedBy: "article.completed",
    earned: (p) => count(p, "article.completed") >= 10,
  },
  {
    id: "articles-100",
    title: "A hundred articles",
    crossedBy: "article.completed",
    earned: (p) => count(p, "article.completed") >= 100,
  },
  {
    id: "first-share",
    title: "First share",
    crossedBy: "article.shared",
    earned: (p) => count(p, "article.shared") >= 1,
  },
  { id: "streak-7", title: "A week in a row", crossedBy: "streak.day", earned: (p) => p.longestRun >= 7 },
  { id: "streak-30", title: "A month in a row", crossedBy: "streak.day", earned: (p) => p.longestRun >= 30 },
];

const LEVEL_ID = /^level-([1-9][0-9]*)$/;

/** Every achievement `progress` has earned, fixed ones first, then `level-2` … `level-<n>`. */
export function achievementsDue(progress: Progress): string[] {
  const fixed = FIXED.filter((achievement) => achievement.earned(progress)).map(({ id }) => id);
  const levels: string[] = [];
  for (let level = 2; level <= levelOf(progress.xp).level; level++) levels.push(`level-${level}`);
  return [...fixed, ...levels];
}

/** Whether `id` names an achievement (a fixed one, or `level-<n>` with n ≥ 2). */
export function isAchievementId(id: string): boolean {
  const level = LEVEL_ID.exec(id);
  return FIXED.some((achievement) => achievement.id === id) || (level !== null && Number(level[1]) >= 2);
}

/** An achievement's title, as the docs list them. */
export function achievementTitle(id: string): string {
  const fixed = FIXED.find((achievement) => achievement.id === id);
  if (fixed) return fixed.title;
  const level = LEVEL_ID.exec(id);
  return level ? `Level ${level[1]}` : id;
}

/**
 * Whether an award of `type` can be the one that crossed `id`: the award's type for a count or a
 * streak; any paid award for a level (XP).
 */
export function crossedByType(id: string, type: string): boolean {
  const fixed = FIXED.find((achievement) => achievement.id === id);
  return fixed ? fixed.crossedBy === type : (eventTypes as readonly string[]).includes(type);
}
