import { dayNumberOf, type HistoryItem } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { creditedAward, progressPlan } from "../src/function/progressPlan";

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
        awards: [{ type: "streak.day", grantId: kept.id, awardedAt: kept.awardedAt }],
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
        awards: [expect.objectContaining({ grantId: day.id })],
      },
      {
        userId: "v",
        keep: [],
        keepKeys: [],
        unkeep: [],
        awards: [expect.objectContaining({ grantId: other.id })],
      },
    ]);
  });

  it("looks for achievements only after awards that stand", () => {
    const revoked = item(
      "u",
      "article.completed",
      { articleSlug: "a" },
      { revokedAt: "2026-12-05T00:00:00.000Z" },
    );
    expect(progressPlan([{ item: revoked, outcome: "written" }])).toEqual([
      { userId: "u", keep: [], keepKeys: [], unkeep: [], awards: [] },
    ]);
  });

  it("credits an achievement to the batch's latest award that can cross it", () => {
    const awards = [
      { type: "article.completed", grantId: "g1", awardedAt: "2026-12-01T00:00:00.000Z" },
      { type: "article.completed", grantId: "g2", awardedAt: "2026-12-02T00:00:00.000Z" },
      { type: "article.shared", grantId: "g3", awardedAt: "2026-12-03T00:00:00.000Z" },
    ];
    expect(creditedAward("articles-10", awards)?.grantId).toBe("g2");
    expect(creditedAward("level-2", awards)?.grantId).toBe("g3");
    expect(creditedAward("streak-7", awards)).toBeUndefined();
  });
});
