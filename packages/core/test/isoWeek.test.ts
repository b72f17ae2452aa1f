import { describe, expect, it } from "vitest";
import { isIsoWeek, isoWeekDays, isoWeekOf, isoWeekPlus, isoWeekStartMs } from "../src/domain/board/isoWeek";

describe("ISO weeks", () => {
  it("puts a day in the week of its Thursday, Monday to Sunday", () => {
    expect(isoWeekOf("2026-11-30")).toBe("2026-W49"); // Monday
    expect(isoWeekOf("2026-12-03")).toBe("2026-W49");
    expect(isoWeekOf("2026-12-06")).toBe("2026-W49"); // Sunday
    expect(isoWeekOf("2026-12-07")).toBe("2026-W50");
    expect(isoWeekOf("2026-11-29")).toBe("2026-W48");
  });

  it("crosses years as ISO does: early January can be last year's week 53, late December next year's week 1", () => {
    expect(isoWeekOf("2021-01-03")).toBe("2020-W53");
    expect(isoWeekOf("2021-01-04")).toBe("2021-W01");
    expect(isoWeekOf("2024-12-30")).toBe("2025-W01");
    expect(isoWeekOf("2026-12-31")).toBe("2026-W53");
    expect(isoWeekOf("2027-01-03")).toBe("2026-W53");
    expect(isoWeekOf("2027-01-04")).toBe("2027-W01");
  });

  it("takes an instant as its UTC day: Sunday 23:59:59.999 UTC is still that week", () => {
    expect(isoWeekOf(Date.parse("2026-12-06T23:59:59.999Z"))).toBe("2026-W49");
    expect(isoWeekOf(Date.parse("2026-12-07T00:00:00.000Z"))).toBe("2026-W50");
  });

  it("starts each week on its Monday 00:00 UTC, and names its first and last days", () => {
    expect(new Date(isoWeekStartMs("2026-W49")).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(new Date(isoWeekStartMs("2026-W01")).toISOString()).toBe("2025-12-29T00:00:00.000Z");
    expect(new Date(isoWeekStartMs("2020-W53")).toISOString()).toBe("2020-12-28T00:00:00.000Z");
    expect(isoWeekDays("2026-W49")).toEqual({ first: "2026-11-30", last: "2026-12-06" });
  });

  it("knows which weeks exist", () => {
    expect(isIsoWeek("2026-W49")).toBe(true);
    expect(isIsoWeek("2026-W53")).toBe(true);
    expect(isIsoWeek("2020-W53")).toBe(true);
    expect(isIsoWeek("2025-W53")).toBe(false);
    expect(isIsoWeek("2026-W00")).toBe(false);
    expect(isIsoWeek("2026-W54")).toBe(false);
    expect(isIsoWeek("2026-W1")).toBe(false);
    expect(isIsoWeek("2026W49")).toBe(false);
    expect(isIsoWeek(" 2026-W49")).toBe(false);
    expect(isIsoWeek(202649)).toBe(false);
    expect(isIsoWeek("1969-W10")).toBe(false);
  });

  it("counts weeks forward and back across years", () => {
    expect(isoWeekPlus("2026-W49", -1)).toBe("2026-W48");
    expect(isoWeekPlus("2026-W53", 1)).toBe("2027-W01");
    expect(isoWeekPlus("2027-W01", -1)).toBe("2026-W53");
    expect(isoWeekPlus("2026-W02", -8)).toBe("2025-W46");
  });
});
