import { achievementsDue, achievementTitle } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { ACHIEVEMENT_GOALS, achievementTiles } from "../src/achievementGuide";

const earned = (id: string, title: string, earnedAt = "2026-12-01T10:00:00.000Z") => ({
  id,
  title,
  earnedAt,
});

describe("the achievement goals", () => {
  it("are the worker's fixed achievements, with its ids and titles", () => {
    // Every fixed achievement is due for a reader with plenty of everything and no XP (no level).
    const fixed = achievementsDue({
      counts: { "article.completed": 1000, "article.shared": 1000 },
      xp: 0,
      longestRun: 1000,
    });
    expect(ACHIEVEMENT_GOALS.map(({ id }) => id)).toEqual(fixed);
    for (const goal of ACHIEVEMENT_GOALS) expect(goal.title).toBe(achievementTitle(goal.id));
  });
});

describe("achievementTiles", () => {
  it("lights the earned ones, greys the rest with what earns them, and offers the next level", () => {
    const tiles = achievementTiles(
      [earned("level-2", "Level 2"), earned("first-article", "First article", "2026-11-30T09:00:00.000Z")],
      2,
      250,
    );
    expect(tiles.map(({ id, earned }) => [id, earned])).toEqual([
      ["first-article", true],
      ["articles-10", false],
      ["articles-100", false],
      ["first-share", false],
      ["streak-7", false],
      ["streak-30", false],
      ["level-2", true],
      ["level-3", false],
    ]);
    expect(tiles[0]).toEqual({
      id: "first-article",
      title: "First article",
      earned: true,
      earnedAt: "2026-11-30T09:00:00.000Z",
    });
    expect(tiles[1]).toEqual({
      id: "articles-10",
      title: "Ten articles",
      earned: false,
      howToEarn: "Finish 10 articles.",
    });
    expect(tiles.at(-1)).toEqual({
      id: "level-3",
      title: "Level 3",
      earned: false,
      howToEarn: "Reach 250 XP.",
    });
  });

  it("orders levels by number and shows a badge it does not know by its title, after them", () => {
    const tiles = achievementTiles(
      [earned("level-10", "Level 10"), earned("night-owl", "Night owl"), earned("level-9", "Level 9")],
      10,
      1500,
    );
    expect(tiles.slice(6).map(({ id, title, earned }) => [id, title, earned])).toEqual([
      ["level-9", "Level 9", true],
      ["level-10", "Level 10", true],
      ["night-owl", "Night owl", true],
      ["level-11", "Level 11", false],
    ]);
  });

  it("a new reader has every goal greyed and level 2 to reach", () => {
    const tiles = achievementTiles([], 1, 100);
    expect(tiles.every(({ earned }) => !earned)).toBe(true);
    expect(tiles.at(-1)).toMatchObject({ id: "level-2", howToEarn: "Reach 100 XP." });
  });
});
