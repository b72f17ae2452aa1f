import { achievementsOnTimeline, type TimedAchievement } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { needsTimeline } from "../src/function/progressPlan";

// Review finding (fixed: the gate counts a retired achievement while the batch holds an award
// committed before its retirement): the history writer's gate (needsTimeline → achievementsDue) drops every
// achievement with an `until` (retired by a version). An award committed BEFORE the retiring
// version's publishedAt, written by the writer AFTER its batch took that version (stream lag,
// a refresh period), meets the achievement on the timeline — `history rebuild` / `backfill`
// earn it — but the writer never reads the timeline: writer and backfill decide differently.
const T_ADDED = "2026-12-01T00:00:00.000Z";
const T_RETIRED = "2026-12-05T12:00:00.000Z";
const podcasts3: TimedAchievement = {
  id: "podcasts-3",
  title: "Three podcasts",
  when: { count: "podcast.listened", reaches: 3 },
  since: T_ADDED,
  until: T_RETIRED,
};
const award = (n: number) => ({
  grantId: `grant-${n}`,
  type: "podcast.listened",
  xp: 1,
  awardedAt: `2026-12-05T1${n}:00:00.000Z`,
  announced: true,
});

describe("review: a retired achievement met before its retirement", () => {
  it("the writer's gate reads the timeline when the timeline (backfill) would earn it", () => {
    // Three podcasts at 10:00, 11:00 and 11:30 — all before the retirement at 12:00.
    const awards = [award(0), award(1), { ...award(2), awardedAt: "2026-12-05T11:30:00.000Z" }];
    const onTimeline = achievementsOnTimeline(awards, [podcasts3]);
    expect(onTimeline.map(({ achievement }) => achievement)).toEqual(["podcasts-3"]); // backfill earns it
    // The writer, its batch on the retiring version, holding the third award's item:
    const plan = {
      userId: "u",
      keep: [],
      unkeep: [],
      paid: true,
      revoked: false,
      earliestAwardedAt: "2026-12-05T11:30:00.000Z",
    };
    const profile = { xp: 3, awards: 3, "count:podcast.listened": 3 };
    const progress = { achievements: new Set<string>(), days: new Set<number>() };
    expect(needsTimeline(plan, profile, progress, [podcasts3])).toBe(true);
    // A batch whose awards all came after the retirement: nothing retired is due.
    expect(
      needsTimeline({ ...plan, earliestAwardedAt: "2026-12-05T12:30:00.000Z" }, profile, progress, [
        podcasts3,
      ]),
    ).toBe(false);
  });
});
