import { dayNumberOf, type HistoryItem } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { needsTimeline, progressPlan } from "../src/function/progressPlan";

let n = 0;
function item(userId: string, type: string, data: Record<string, string>, extra: Partial<HistoryItem> = {}) {
  n++;
  const awardedAt = `2026-12-0${(n % 9) + 1}T10:00:00.000Z`;
  return {
    pk: `USER#${userId}`,
    sk: `AWARD#${awardedAt}#grant-${n}`,
    id: `grant-${n}`,
    type,
    data,
    xp: 10,
    eventId: `e${n}`,
    eventTime: awardedAt,
    earnedOn: awardedAt.slice(0, 10),
    awardedAt,
    intentKey: `${userId}#${n}`,
    ...extra,
  } as HistoryItem;
}

describe("what a batch changes of each reader's progress", () => {
  it("keeps the day of a written, unrevoked streak.day item, and un-keeps a revoked or overtaken one", () => {
    const kept = item("u", "streak.day", { day: "2026-12-01" });
    const revoked = item("u", "streak.day", { day: "2026-12-02" }, { revokedAt: "2026-12-03T00:00:00.000Z" });
    const overtaken = item("u", "streak.day", { day: "2026-12-03" });
    expect(
      progressPlan([
        { item: kept, outcome: "written" },
        { item: revoked, outcome: "written" },
        { item: overtaken, outcome: "skipped" },
      ]),
    ).toEqual([
      {
        userId: "u",
        keep: [dayNumberOf("2026-12-01")],
        keepKeys: [{ pk: kept.pk, sk: kept.sk }],
        unkeep: [dayNumberOf("2026-12-02"), dayNumberOf("2026-12-03")],
        paid: true,
        revoked: true,
        // The standing award's instant: achievements retired after it may still be due.
        earliestAwardedAt: kept.awardedAt,
        latestAwardedAt: kept.awardedAt,
      },
    ]);
  });

  it("lets the last record of a day's award decide, and groups by reader", () => {
    const day = item("u", "streak.day", { day: "2026-12-01" });
    const revokedLater = { ...day, revokedAt: "2026-12-05T00:00:00.000Z" };
    const other = item("v", "article.completed", { articleSlug: "a" });
    expect(
      progressPlan([
        { item: day, outcome: "written" },
        { item: other, outcome: "written" },
        { item: revokedLater, outcome: "written" },
      ]),
    ).toEqual([
      {
        userId: "u",
        keep: [],
        keepKeys: [],
        unkeep: [dayNumberOf("2026-12-01")],
        paid: true,
        revoked: true,
        earliestAwardedAt: day.awardedAt,
        latestAwardedAt: day.awardedAt,
      },
      {
        userId: "v",
        keep: [],
        keepKeys: [],
        unkeep: [],
        paid: true,
        revoked: false,
        earliestAwardedAt: other.awardedAt,
        latestAwardedAt: other.awardedAt,
      },
    ]);
  });

  it("says whether the batch paid or revoked anything of the reader's", () => {
    const revoked = item(
      "u",
      "article.completed",
      { articleSlug: "a" },
      { revokedAt: "2026-12-05T00:00:00.000Z" },
    );
    expect(progressPlan([{ item: revoked, outcome: "written" }])).toEqual([
      { userId: "u", keep: [], keepKeys: [], unkeep: [], paid: false, revoked: true },
    ]);
  });

  it("reads the timeline after a revocation, for a reader who ever had one, and otherwise only when the profile or the kept days meet an achievement not yet earned", () => {
    const plan = { userId: "u", keep: [], unkeep: [], paid: true, revoked: false };
    const profile = (xp: number, articles: number, revoked?: number) => ({
      xp,
      "count:article.completed": articles,
      ...(revoked === undefined ? {} : { revoked }),
    });
    const progress = (achievements: string[], days: string[] = []) => ({
      achievements: new Set(achievements),
      days: new Set(days.map(dayNumberOf)),
    });
    expect(needsTimeline(plan, profile(20, 1), progress(["first-article"]))).toBe(false);
    expect(needsTimeline(plan, profile(20, 1), progress([]))).toBe(true);
    expect(needsTimeline(plan, profile(20, 1), undefined)).toBe(true);
    expect(needsTimeline(plan, profile(100, 1), progress(["first-article"]))).toBe(true);
    expect(needsTimeline(plan, profile(20, 1, 1), progress(["first-article"]))).toBe(true);
    expect(needsTimeline(plan, profile(20, 1, 0), progress(["first-article"]))).toBe(false);
    expect(needsTimeline({ ...plan, paid: false, revoked: true }, profile(0, 0), undefined)).toBe(true);
    expect(needsTimeline({ ...plan, paid: false }, profile(20, 1), progress([]))).toBe(false);
    const week = [
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
      "2026-12-06",
      "2026-12-07",
    ];
    expect(needsTimeline(plan, profile(20, 1), progress(["first-article"], week))).toBe(true);
    expect(needsTimeline(plan, profile(20, 1), progress(["first-article", "streak-7"], week))).toBe(false);
    expect(needsTimeline(plan, profile(20, 1), progress(["first-article"], week.slice(1)))).toBe(false);
    // Seven days kept, not seven in a row: no run to earn.
    const gaps = [
      "2026-12-01",
      "2026-12-03",
      "2026-12-05",
      "2026-12-07",
      "2026-12-09",
      "2026-12-11",
      "2026-12-13",
    ];
    expect(needsTimeline(plan, profile(20, 1), progress(["first-article"], gaps))).toBe(false);
  });
});
