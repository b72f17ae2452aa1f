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

describe("progressRepairOf", () => {
  it("adds every day an unrevoked streak item keeps, removes only a day whose item is revoked, and leaves a day whose item it cannot see", () => {
    const repair = progressRepairOf(
      state({
        profile: { xp: 20, awards: 2, counts: counts({ "streak.day": 2 }) },
        // Day 20: its item past retention (or not written yet); day 3: revoked.
        keptDays: new Set([day(2), day(3), day(20)]),
        history: [streakDay(1), streakDay(2), streakDay(3, REVOKED)],
      }),
      { counts: false },
    );
    expect(repair).toEqual({ keep: [day(1)], unkeep: [day(3)], achieve: [], list: [], counts: undefined });
  });

  it("earns a streak from the days as repaired: runs joined by the days it adds, without the days it removes", () => {
    const kept = [1, 2, 3, 5, 6, 7].map(day);
    const history = [1, 2, 3, 4, 5, 6, 7].map((n) => streakDay(n));
    const profile = { xp: 70, awards: 7, counts: full({ "streak.day": 7 }) };
    expect(progressRepairOf(state({ profile, keptDays: new Set(kept), history }), { counts: true })).toEqual({
      keep: [day(4)],
      unkeep: [],
      achieve: ["streak-7"],
      list: ["streak-7"],
      counts: undefined,
    });
    // Day 4 revoked, and kept by mistake: removed, and the run of seven is not there to earn.
    const revoked = [...history.filter((_, i) => i !== 3), streakDay(4, REVOKED)];
    const withFour = new Set([...kept, day(4)]);
    expect(
      progressRepairOf(
        state({
          profile: { ...profile, awards: 6, counts: full({ "streak.day": 6 }) },
          keptDays: withFour,
          history: revoked,
        }),
        { counts: true },
      ),
    ).toEqual({ keep: [], unkeep: [day(4)], achieve: [], list: [], counts: undefined });
  });

  it("sets the counts the unrevoked history shows, and earns from them, when it accounts for every award", () => {
    // Paid before counts existed: none on the profile. One article revoked.
    const repair = progressRepairOf(
      state({
        profile: { xp: 130, awards: 3, counts: counts({}) },
        history: [
          award("signup.completed"),
          award("article.completed"),
          award("article.completed", REVOKED),
          award("article.completed"),
        ],
      }),
      { counts: true },
    );
    expect(repair).toEqual({
      keep: [],
      unkeep: [],
      achieve: ["first-article", "level-2"],
      list: ["first-article", "level-2"],
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 },
    });
  });

  it("writes no counts when the history does not account for every award, and earns from the profile's", () => {
    // Five awards, two of them past the history's retention, on a profile never counted.
    const repair = progressRepairOf(
      state({
        profile: { xp: 200, awards: 5, counts: counts({}) },
        history: [award("signup.completed"), award("article.completed")],
      }),
      { counts: true },
    );
    expect(repair).toEqual({
      keep: [],
      unkeep: [],
      achieve: ["level-2"],
      list: ["level-2"],
      counts: "incomplete",
    });
    // A profile a transaction has counted is the transactions' to keep, whatever its history says:
    // an award and a revocation of another type inside the writer's lag balance `awards`.
    expect(
      progressRepairOf(
        state({
          profile: { xp: 25, awards: 2, counts: counts({ "article.completed": 2, "article.shared": 0 }) },
          history: [award("article.completed"), award("article.shared")],
        }),
        { counts: true },
      ).counts,
    ).toBeUndefined();
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
    ).toEqual({ keep: [], unkeep: [], achieve: [], list: [], counts: undefined });
  });

  it("lists an achievement whose item is there and unlisted, and never earns one twice", () => {
    const repair = progressRepairOf(
      state({
        profile: { xp: 100, awards: 1, counts: counts({ "article.completed": 1 }) },
        history: [award("article.completed")],
        achievements: new Set(["first-article"]),
      }),
      { counts: false },
    );
    expect(repair).toEqual({
      keep: [],
      unkeep: [],
      achieve: ["level-2"],
      list: ["first-article", "level-2"],
      counts: undefined,
    });
  });
});
