import { describe, expect, it } from "vitest";
import { achievementsDue, type TimedAchievement } from "../src/domain/progress/achievements";
import { achievementsOnTimeline, type TimelineAward } from "../src/domain/progress/achievementTimeline";
import { achievementTimesAfter, timedAchievementsOf } from "../src/domain/rules/achievementTimes";
import { builtinWith } from "./rulesFixtures";

/** Achievements a version added or retired (docs/rules.md#new-and-retired-achievements): when each counts. */
const award = (
  grantId: string,
  type: string,
  xp: number,
  awardedAt: string,
  more: Partial<TimelineAward> = {},
) => ({
  grantId,
  type,
  xp,
  awardedAt,
  announced: true,
  ...more,
});

const PODCASTS_3: TimedAchievement = {
  id: "podcasts-3",
  title: "Three podcasts",
  when: { count: "podcast.listened", reaches: 3 },
  since: "2026-12-05T12:00:00.000Z",
};

describe("achievements on the timeline with instants", () => {
  const three = [
    award("g1", "podcast.listened", 10, "2026-12-05T09:00:00.000Z"),
    award("g2", "podcast.listened", 10, "2026-12-05T10:00:00.000Z"),
    award("g3", "podcast.listened", 10, "2026-12-05T11:00:00.000Z"),
  ];

  it("one added later is earned at its `since`, with no grant, by a reader who already met it", () => {
    expect(achievementsOnTimeline(three, [PODCASTS_3])).toEqual([
      { achievement: "podcasts-3", earnedAt: "2026-12-05T12:00:00.000Z" },
    ]);
  });

  it("met after its `since`: earned at the award that crossed it, with its grant", () => {
    const later = [...three.slice(0, 2), award("g4", "podcast.listened", 10, "2026-12-05T13:00:00.000Z")];
    expect(achievementsOnTimeline(later, [PODCASTS_3])).toEqual([
      { achievement: "podcasts-3", earnedAt: "2026-12-05T13:00:00.000Z", grantId: "g4" },
    ]);
  });

  it("what stood at `since` decides: an award revoked before it does not count", () => {
    const revoked = [
      ...three.slice(0, 2),
      award("g3", "podcast.listened", 10, "2026-12-05T11:00:00.000Z", {
        revokedAt: "2026-12-05T11:30:00.000Z",
      }),
    ];
    expect(achievementsOnTimeline(revoked, [PODCASTS_3])).toEqual([]);
  });

  it("met at its `since` and again by a later award: earned at `since` with no grant, not by the later award", () => {
    const more = [...three, award("g4", "podcast.listened", 10, "2026-12-05T13:00:00.000Z")];
    expect(achievementsOnTimeline(more, [PODCASTS_3])).toEqual([
      { achievement: "podcasts-3", earnedAt: "2026-12-05T12:00:00.000Z" },
    ]);
  });

  it("a streak added later: the run standing at `since` decides, not days kept once and revoked", () => {
    const streak3: TimedAchievement = {
      id: "streak-3",
      title: "Three days",
      when: { streak: 3 },
      since: "2026-12-05T12:00:00.000Z",
    };
    const day = (grantId: string, keepsDay: number, more: Partial<TimelineAward> = {}) =>
      award(grantId, "streak.day", 10, `2026-12-05T0${keepsDay}:00:00.000Z`, {
        keepsDay: 20_000 + keepsDay,
        ...more,
      });
    const kept = [day("d1", 1), day("d2", 2), day("d3", 3)];
    expect(achievementsOnTimeline(kept, [streak3])).toEqual([
      { achievement: "streak-3", earnedAt: "2026-12-05T12:00:00.000Z" },
    ]);
    // The middle day revoked before `since`: a run of 1 stands then.
    const broken = [day("d1", 1), day("d2", 2, { revokedAt: "2026-12-05T11:00:00.000Z" }), day("d3", 3)];
    expect(achievementsOnTimeline(broken, [streak3])).toEqual([]);
  });

  it("retired: only instants before its `until` count", () => {
    const retired = { ...PODCASTS_3, since: undefined, until: "2026-12-05T10:30:00.000Z" };
    expect(achievementsOnTimeline(three, [retired])).toEqual([]);
    // An award at the very instant it retired: no longer counted ([since, until)).
    expect(achievementsOnTimeline(three, [{ ...retired, until: "2026-12-05T11:00:00.000Z" }])).toEqual([]);
    expect(achievementsOnTimeline(three, [{ ...retired, until: "2026-12-05T11:00:00.001Z" }])).toEqual([
      { achievement: "podcasts-3", earnedAt: "2026-12-05T11:00:00.000Z", grantId: "g3" },
    ]);
    // Added and retired by one version: never.
    expect(achievementsOnTimeline(three, [{ ...PODCASTS_3, until: PODCASTS_3.since }])).toEqual([]);
  });

  it("an XP condition, and a retired one never due", () => {
    const xp100: TimedAchievement = { id: "xp-25", title: "25 XP", when: { xp: 25 } };
    expect(achievementsOnTimeline(three, [xp100])).toEqual([
      { achievement: "xp-25", earnedAt: "2026-12-05T11:00:00.000Z", grantId: "g3" },
    ]);
    const progress = { counts: {}, xp: 30, longestRun: 0 };
    expect(achievementsDue(progress, [xp100])).toEqual(["xp-25"]);
    expect(achievementsDue(progress, [{ ...xp100, until: "2026-12-05T00:00:00.000Z" }])).toEqual([]);
  });
});

describe("achievement times carried from version to version", () => {
  const base = builtinWith();
  const withFan = builtinWith((rules) => {
    rules.achievements.push({ id: "fan", title: "Fan", when: { xp: 500 } });
  });

  it("a new one counts from its version's publish; built-ins never have a since", () => {
    const times = achievementTimesAfter({ document: base }, withFan, "2026-12-05T12:00:00.000Z");
    expect(times).toEqual({ fan: { since: "2026-12-05T12:00:00.000Z" } });
    const timed = timedAchievementsOf({ document: withFan, achievementTimes: times });
    expect(timed.find(({ id }) => id === "fan")).toMatchObject({ since: "2026-12-05T12:00:00.000Z" });
    expect(timed.find(({ id }) => id === "first-article")?.since).toBeUndefined();
  });

  it("kept through later versions, and retired at the version that retires it, once", () => {
    const first = achievementTimesAfter({ document: base }, withFan, "2026-12-05T12:00:00.000Z");
    const retired = builtinWith((rules) => {
      rules.achievements.push({ id: "fan", title: "Fan", when: { xp: 500 }, retired: true });
    });
    const second = achievementTimesAfter(
      { document: withFan, achievementTimes: first },
      retired,
      "2026-12-06T12:00:00.000Z",
    );
    expect(second).toEqual({
      fan: { since: "2026-12-05T12:00:00.000Z", retiredAt: "2026-12-06T12:00:00.000Z" },
    });
    const third = achievementTimesAfter(
      { document: retired, achievementTimes: second },
      retired,
      "2026-12-07T12:00:00.000Z",
    );
    expect(third).toEqual(second);
    expect(timedAchievementsOf({ document: retired, achievementTimes: third }).at(-1)).toMatchObject({
      until: "2026-12-06T12:00:00.000Z",
    });
  });
});
