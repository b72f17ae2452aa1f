import { dayNumberOf } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { progressRepairOf } from "../src/progress/progressRepair";
import type { ReaderState } from "../src/progress/readerState";

const REVOKED = "2026-12-20T00:00:00.000Z";
const day = (n: number) => dayNumberOf(`2026-12-${String(n).padStart(2, "0")}`);
const streakDay = (n: number, revokedAt?: string) => ({
  type: "streak.day",
  data: { day: `2026-12-${String(n).padStart(2, "0")}` },
  ...(revokedAt ? { revokedAt } : {}),
});
const award = (type: string, revokedAt?: string) => ({
  type,
  data: { articleSlug: "a" },
  ...(revokedAt ? { revokedAt } : {}),
});
const counts = (given: Record<string, number | undefined>) => ({
  "article.completed": undefined,
  "article.shared": undefined,
  "streak.day": undefined,
  "signup.completed": undefined,
  ...given,
});
/** Counts on a profile that has every type's. */
const full = (given: Record<string, number>) => ({
  "article.completed": 0,
  "article.shared": 0,
  "streak.day": 0,
  "signup.completed": 0,
  ...given,
});
const state = (given: Partial<ReaderState>): ReaderState => ({
  profile: undefined,
  keptDays: new Set(),
  achievements: new Set(),
  listed: new Set(),
  history: [],
  ...given,
});

const keyOf = (n: number) => ({
  pk: "USER#u",
  sk: `AWARD#2026-12-${String(n).padStart(2, "0")}T10:00:00.000Z#g${n}`,
});

describe("progressRepairOf", () => {
  it("adds every day an unrevoked streak item keeps, removes only a day whose item is revoked, and leaves a day whose item it cannot see", () => {
    const repair = progressRepairOf(
      state({
        profile: { xp: 20, awards: 2, counts: counts({ "streak.day": 2 }) },
        // Day 20: its item past retention (or not written yet); day 3: revoked.
        keptDays: new Set([day(2), day(3), day(20)]),
        history: [
          { ...keyOf(1), ...streakDay(1) },
          { ...keyOf(2), ...streakDay(2) },
          { ...keyOf(3), ...streakDay(3, REVOKED) },
        ],
      }),
      { counts: false },
    );
    expect(repair).toEqual({
      keep: [day(1)],
      keepKeys: [keyOf(1)],
      unkeep: [day(3)],
      list: [],
      counts: undefined,
    });
  });

  it("raises each count the unrevoked history shows more of, when it accounts for every award", () => {
    // Paid before counts existed: none on the profile. One article revoked.
    const history = [
      award("signup.completed"),
      award("article.completed"),
      award("article.completed", REVOKED),
      award("article.completed"),
    ];
    expect(
      progressRepairOf(state({ profile: { xp: 130, awards: 3, counts: counts({}) }, history }), {
        counts: true,
      }),
    ).toEqual({
      keep: [],
      keepKeys: [],
      unkeep: [],
      list: [],
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 },
    });
    // A count left below the truth (-1: an uncounted award's revocation, before guards said so): raised.
    expect(
      progressRepairOf(
        state({
          profile: { xp: 130, awards: 3, counts: full({ "article.completed": 1, "signup.completed": 1 }) },
          history,
        }),
        { counts: true },
      ).counts,
    ).toEqual({ "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 });
    expect(
      progressRepairOf(
        state({
          profile: { xp: 130, awards: 3, counts: full({ "article.completed": -1, "signup.completed": 1 }) },
          history,
        }),
        { counts: true },
      ).counts,
    ).toEqual({ "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 });
    // One count below, another above: the one raised, the other left where it is.
    expect(
      progressRepairOf(
        state({
          profile: {
            xp: 130,
            awards: 3,
            counts: full({ "article.completed": 1, "article.shared": 2, "signup.completed": 1 }),
          },
          history,
        }),
        { counts: true },
      ).counts,
    ).toEqual({ "article.completed": 2, "article.shared": 2, "streak.day": 0, "signup.completed": 1 });
    // Never lowered: a count above the history's is left (a revoked award its guard says was never counted).
    expect(
      progressRepairOf(
        state({
          profile: { xp: 130, awards: 3, counts: full({ "article.completed": 3, "signup.completed": 1 }) },
          history,
        }),
        { counts: true },
      ).counts,
    ).toBeUndefined();
  });

  it("writes no counts when the history does not account for every award", () => {
    // Five awards, two of them past the history's retention, on a profile never counted.
    const repair = progressRepairOf(
      state({
        profile: { xp: 200, awards: 5, counts: counts({}) },
        history: [award("signup.completed"), award("article.completed")],
      }),
      { counts: true },
    );
    expect(repair.counts).toBe("incomplete");
    // Counts the history agrees with: nothing to set.
    expect(
      progressRepairOf(
        state({
          profile: { xp: 10, awards: 1, counts: full({ "article.completed": 1 }) },
          history: [award("article.completed")],
          achievements: new Set(["first-article"]),
          listed: new Set(["first-article"]),
        }),
        { counts: true },
      ).counts,
    ).toBeUndefined();
    // Without `counts`, neither compared nor set.
    expect(
      progressRepairOf(
        state({ profile: { xp: 10, awards: 1, counts: counts({}) }, history: [award("article.completed")] }),
        { counts: false },
      ),
    ).toEqual({ keep: [], keepKeys: [], unkeep: [], list: [], counts: undefined });
  });

  it("lists an achievement whose item is there and unlisted", () => {
    const repair = progressRepairOf(
      state({
        profile: { xp: 100, awards: 1, counts: counts({ "article.completed": 1 }) },
        history: [award("article.completed")],
        achievements: new Set(["first-article"]),
      }),
      { counts: false },
    );
    expect(repair.list).toEqual(["first-article"]);
  });
});
