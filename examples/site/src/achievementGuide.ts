import type { Achievement } from "@rewards/reader";

/**
 * Every achievement a reader can play for, earned or not, with what earns it
 * (docs/reading.md#achievements). The API lists only the earned ones; a site that wants the
 * rest greyed keeps this list, as the page does (a unit test holds its ids and titles to the
 * worker's). Levels are open-ended: the page shows the next one.
 */
export interface AchievementGoal {
  id: string;
  title: string;
  howToEarn: string;
}

export const ACHIEVEMENT_GOALS: readonly AchievementGoal[] = [
  { id: "first-article", title: "First article", howToEarn: "Finish an article." },
  { id: "articles-10", title: "Ten articles", howToEarn: "Finish 10 articles." },
  { id: "articles-100", title: "A hundred articles", howToEarn: "Finish 100 articles." },
  { id: "first-share", title: "First share", howToEarn: "Share an article." },
  { id: "streak-7", title: "A week in a row", howToEarn: "Read 7 days in a row." },
  { id: "streak-30", title: "A month in a row", howToEarn: "Read 30 days in a row." },
];

export interface AchievementTile {
  id: string;
  title: string;
  earned: boolean;
  /** When earned: the API's earnedAt. */
  earnedAt?: string;
  /** When not: what earns it. */
  howToEarn?: string;
}

/**
 * The tiles to show: every fixed goal (lit when earned), then the levels earned, then the next
 * level to reach; an earned id the page does not know (a new badge) by its title, as the docs ask.
 */
export function achievementTiles(
  earned: readonly Achievement[],
  level: number,
  xpNext: number,
): AchievementTile[] {
  const byId = new Map(earned.map((achievement) => [achievement.id, achievement]));
  const known = new Set(ACHIEVEMENT_GOALS.map(({ id }) => id));
  const tile = (id: string, title: string, howToEarn: string): AchievementTile => {
    const got = byId.get(id);
    return got
      ? { id, title: got.title, earned: true, earnedAt: got.earnedAt }
      : { id, title, earned: false, howToEarn };
  };
  const fixed = ACHIEVEMENT_GOALS.map(({ id, title, howToEarn }) => tile(id, title, howToEarn));
  const others = earned
    .filter(({ id }) => !known.has(id))
    .sort((a, b) => levelNumber(a.id) - levelNumber(b.id) || a.id.localeCompare(b.id))
    .map(({ id, title, earnedAt }) => ({ id, title, earned: true, earnedAt }));
  const next = tile(`level-${level + 1}`, `Level ${level + 1}`, `Reach ${xpNext} XP.`);
  return [...fixed, ...others, ...(next.earned ? [] : [next])];
}

/** A level achievement's number (level-3 → 3); Infinity for another id, so badges follow levels. */
function levelNumber(id: string): number {
  const level = /^level-(\d+)$/.exec(id);
  return level ? Number(level[1]) : Number.POSITIVE_INFINITY;
}
