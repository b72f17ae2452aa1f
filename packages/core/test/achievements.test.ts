import { describe, expect, it } from "vitest";
import { achievementsDue, achievementTitle, isAchievementId } from "../src/domain/progress/achievements";

const progress = (counts: Record<string, number>, xp = 0, longestRun = 0) => ({ counts, xp, longestRun });

describe("achievements", () => {
  it("earns none with nothing", () => {
    expect(achievementsDue(progress({}))).toEqual([]);
  });

  it("earns each count's achievements at exactly their thresholds", () => {
    expect(achievementsDue(progress({ "article.completed": 1 }))).toEqual(["first-article"]);
    expect(achievementsDue(progress({ "article.completed": 9 }))).toEqual(["first-article"]);
    expect(achievementsDue(progress({ "article.completed": 10 }))).toEqual(["first-article", "articles-10"]);
    expect(achievementsDue(progress({ "article.completed": 99 }))).toEqual(["first-article", "articles-10"]);
    expect(achievementsDue(progress({ "article.completed": 100 }))).toEqual([
      "first-article",
      "articles-10",
      "articles-100",
    ]);
    expect(achievementsDue(progress({ "article.shared": 1 }))).toEqual(["first-share"]);
    expect(achievementsDue(progress({ "streak.day": 40, "signup.completed": 1 }))).toEqual([]);
  });

  it("earns the streak achievements from the longest run of kept days", () => {
    expect(achievementsDue(progress({}, 0, 6))).toEqual([]);
    expect(achievementsDue(progress({}, 0, 7))).toEqual(["streak-7"]);
    expect(achievementsDue(progress({}, 0, 29))).toEqual(["streak-7"]);
    expect(achievementsDue(progress({}, 0, 30))).toEqual(["streak-7", "streak-30"]);
  });

  it("earns one achievement per level crossed, from level 2", () => {
    expect(achievementsDue(progress({}, 99))).toEqual([]);
    expect(achievementsDue(progress({}, 100))).toEqual(["level-2"]);
    expect(achievementsDue(progress({}, 250))).toEqual(["level-2", "level-3"]);
    expect(achievementsDue(progress({}, 15_000))).toHaveLength(10);
    expect(achievementsDue(progress({}, 15_000)).at(-1)).toBe("level-11");
  });

  it("names and titles them", () => {
    expect(
      [
        "first-article",
        "articles-10",
        "articles-100",
        "first-share",
        "streak-7",
        "streak-30",
        "level-2",
        "level-12",
      ].every(isAchievementId),
    ).toBe(true);
    // A site's own achievements (docs/rules.md) have ids of the rules' form: only `level-` ids are the levels'.
    expect(["articles-5", "podcast-fan"].every(isAchievementId)).toBe(true);
    expect(["level-1", "level-0", "level-02", "", "Gold", "-x"].some(isAchievementId)).toBe(false);
    expect(achievementTitle("first-article")).toBe("First article");
    expect(achievementTitle("streak-7")).toBe("A week in a row");
    expect(achievementTitle("level-5")).toBe("Level 5");
    expect(
      achievementTitle("podcast-fan", [{ id: "podcast-fan", title: "Podcast fan", when: { xp: 5 } }]),
    ).toBe("Podcast fan");
  });
});
