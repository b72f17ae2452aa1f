import { describe, expect, it } from "vitest";
import { capRoom, countsTowardCap, paidUnderCap } from "../src/domain/award/dailyCap";

describe("the daily cap's arithmetic", () => {
  it("leaves what the day's total has not used, never less than nothing", () => {
    expect(capRoom(50, 20)).toBe(30);
    expect(capRoom(50, 50)).toBe(0);
    // A cap lowered below the day's total.
    expect(capRoom(50, 70)).toBe(0);
  });

  it("pays an award what is left of its day, all of it without a cap", () => {
    expect(paidUnderCap(20, 20, 50)).toBe(20);
    expect(paidUnderCap(20, 40, 50)).toBe(10);
    expect(paidUnderCap(20, 50, 50)).toBe(0);
    expect(paidUnderCap(20, 70, 50)).toBe(0);
    expect(paidUnderCap(20, 1_000, undefined)).toBe(20);
  });

  it("counts the capped rules toward a day, and a type no rule names; not the signup bonus", () => {
    expect(countsTowardCap("article.completed")).toBe(true);
    expect(countsTowardCap("article.shared")).toBe(true);
    expect(countsTowardCap("streak.day")).toBe(true);
    expect(countsTowardCap("signup.completed")).toBe(false);
    expect(countsTowardCap("article.retired")).toBe(true);
  });
});
