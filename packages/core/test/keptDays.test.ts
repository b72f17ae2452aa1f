import { describe, expect, it } from "vitest";
import { dayNumberOf, dayOfNumber, keptDayOf, longestRun, streakOf } from "../src/domain/progress/keptDays";

const days = (...list: string[]) => list.map(dayNumberOf);
const today = dayNumberOf("2026-12-10");

describe("kept days and streaks", () => {
  it("numbers days from 1970-01-01 and back", () => {
    expect(dayNumberOf("1970-01-01")).toBe(0);
    expect(dayNumberOf("2026-12-03")).toBe(20_790);
    expect(dayOfNumber(20_790)).toBe("2026-12-03");
  });

  it("reads one run, in any order and with copies", () => {
    const kept = days("2026-12-08", "2026-12-10", "2026-12-09", "2026-12-10", "2026-12-08");
    expect(streakOf(kept, today)).toEqual({ current: 3, longest: 3, lastDay: "2026-12-10" });
    expect(longestRun(kept)).toBe(3);
  });

  it("keeps a run current through yesterday, and ends it the day after", () => {
    const kept = days("2026-12-08", "2026-12-09");
    expect(streakOf(kept, today)).toEqual({ current: 2, longest: 2, lastDay: "2026-12-09" });
    expect(streakOf(kept, today + 1)).toEqual({ current: 0, longest: 2, lastDay: "2026-12-09" });
  });

  it("is not current when the last kept day is after the zone's today (neither today nor yesterday)", () => {
    expect(streakOf(days("2026-12-10", "2026-12-11"), today)).toEqual({
      current: 0,
      longest: 2,
      lastDay: "2026-12-11",
    });
  });

  it("joins two runs by the day between them, and splits them again without it", () => {
    const apart = days("2026-12-01", "2026-12-02", "2026-12-04", "2026-12-05", "2026-12-06");
    expect(streakOf(apart, dayNumberOf("2026-12-06"))).toEqual({
      current: 3,
      longest: 3,
      lastDay: "2026-12-06",
    });
    const joined = [...apart, dayNumberOf("2026-12-03")];
    expect(streakOf(joined, dayNumberOf("2026-12-06"))).toEqual({
      current: 6,
      longest: 6,
      lastDay: "2026-12-06",
    });
  });

  it("is nothing without days", () => {
    expect(streakOf([], today)).toEqual({ current: 0, longest: 0 });
    expect(longestRun([])).toBe(0);
  });

  it("keeps the longest run when the current one is shorter", () => {
    const kept = days("2026-11-01", "2026-11-02", "2026-11-03", "2026-12-10");
    expect(streakOf(kept, today)).toEqual({ current: 1, longest: 3, lastDay: "2026-12-10" });
  });
});

describe("the day an award keeps (docs/rules.md#facts-are-recorded)", () => {
  it("the guard's keepsDay, whatever the type; else a built-in streak.day's day; else none", () => {
    expect(keptDayOf({ type: "quiz.day", keepsDay: "2026-12-05", data: { on: "2026-12-05" } })).toBe(
      "2026-12-05",
    );
    // Recorded, never re-derived: keepsDay wins over the data.
    expect(keptDayOf({ type: "streak.day", keepsDay: "2026-12-04", data: { day: "2026-12-05" } })).toBe(
      "2026-12-04",
    );
    expect(keptDayOf({ type: "streak.day", data: { day: "2026-12-05" } })).toBe("2026-12-05");
    // A site's type with a `day` field that keeps no streak keeps no day.
    expect(keptDayOf({ type: "quiz.day", data: { day: "2026-12-05" } })).toBeUndefined();
    expect(keptDayOf({ type: "article.completed", data: { articleSlug: "a" } })).toBeUndefined();
  });
});
