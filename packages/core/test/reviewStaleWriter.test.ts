import { describe, expect, it } from "vitest";
import { achievementsOnTimeline, type TimelineAward } from "../src/domain";
import { achievementTimesAfter, timedAchievementsOf } from "../src/domain/rules/achievementTimes";
import { builtinWith } from "./rulesFixtures";

// Review finding (risk): the history's writer decides with the version its batch took, which may
// be up to two refresh periods old. An achievement retired by version m at T: an award committed
// after T, written by a writer still on m-1, earns it (the writer's list has no `until`); backfill
// and `history rebuild` (version m) say it was never earned — and it is announced, never taken back.
const T = "2026-12-05T12:00:00.000Z";
const v1 = builtinWith((rules) => {
  rules.achievements.push({ id: "xp-50", title: "Fifty", when: { xp: 50 } });
});
const v2 = builtinWith((rules) => {
  rules.achievements.push({ id: "xp-50", title: "Fifty", when: { xp: 50 }, retired: true });
});
const v1Times = achievementTimesAfter({ document: builtinWith() }, v1, "2026-12-01T00:00:00.000Z");
const v2Times = achievementTimesAfter({ document: v1, achievementTimes: v1Times }, v2, T);
const award: TimelineAward = {
  grantId: "grant-1",
  type: "article.completed",
  xp: 60,
  awardedAt: "2026-12-05T12:00:30.000Z", // 30 s after the retirement
  announced: true,
};

describe("review: a writer one version behind decides a retired achievement", () => {
  it.fails("the writer (on version 1) and backfill (on version 2) decide the same", () => {
    const writer = achievementsOnTimeline(
      [award],
      timedAchievementsOf({ document: v1, achievementTimes: v1Times }),
    ).map(({ achievement }) => achievement);
    const backfill = achievementsOnTimeline(
      [award],
      timedAchievementsOf({ document: v2, achievementTimes: v2Times }),
    ).map(({ achievement }) => achievement);
    expect(writer).toEqual(backfill); // writer: [first-article, xp-50]; backfill: [first-article]
  });
});
