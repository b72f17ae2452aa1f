import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../src/historyCursor";
import { checkedCursor, checkedLimit, checkedUserId } from "../src/readInput";
import { todayOf } from "../src/today";

describe("the reader's input checks: a RangeError naming the parameter", () => {
  it("userId: the envelope's rule (1–256 characters of well-formed Unicode)", () => {
    expect(checkedUserId("user123")).toBe("user123");
    expect(checkedUserId("x".repeat(256))).toBe("x".repeat(256));
    for (const bad of ["", "x".repeat(257), "\ud800", 42, undefined]) {
      expect(() => checkedUserId(bad)).toThrow(RangeError);
      expect(() => checkedUserId(bad)).toThrow(/^userId: /);
    }
  });

  it("limit: an integer from 1 to 100, 20 when absent", () => {
    expect(checkedLimit(undefined)).toBe(20);
    expect(checkedLimit(1)).toBe(1);
    expect(checkedLimit(100)).toBe(100);
    for (const bad of [0, 101, 2.5, -1, Number.NaN, "5", null]) {
      expect(() => checkedLimit(bad)).toThrow(RangeError);
      expect(() => checkedLimit(bad)).toThrow(/^limit: an integer from 1 to 100/);
    }
  });

  it("cursor: only one this reader made, for this user", () => {
    const sk = "AWARD#2026-12-02T10:00:00.000Z#grant-abc";
    const cursor = encodeCursor("u1", sk);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(checkedCursor("u1", cursor)).toBe(sk);
    expect(checkedCursor("u1", undefined)).toBeUndefined();
    const forged = [
      encodeCursor("u2", sk), // another user's
      Buffer.from(JSON.stringify({ v: 2, u: "u1", k: sk })).toString("base64url"), // another version
      Buffer.from(JSON.stringify({ v: 1, u: "u1", k: "PROFILE" })).toString("base64url"), // not an award key
      encodeCursor("u1", `AWARD#${"z".repeat(1100)}`), // a sort key DynamoDB would refuse
      "not a cursor!",
      "e30", // {}
      "",
      Buffer.from("[1,").toString("base64url"),
    ];
    for (const bad of forged) {
      expect(decodeCursor("u1", bad)).toBeUndefined();
      expect(() => checkedCursor("u1", bad)).toThrow(RangeError);
      expect(() => checkedCursor("u1", bad)).toThrow(/^cursor: /);
    }
    expect(() => checkedCursor("u1", 7)).toThrow(/^cursor: /);
  });
});

describe("todayOf: today's UTC date, and the first sort key that can hold an award earned today", () => {
  it("is the UTC date whatever the process's time zone, and starts 5 minutes before its midnight", () => {
    // 23:30 UTC is already the next day in the far-east zone and still today in the far west.
    expect(todayOf(new Date("2026-12-02T23:30:00.000Z"))).toEqual({
      day: "2026-12-02",
      fromSk: "AWARD#2026-12-01T23:55:00.000Z",
    });
    expect(todayOf(new Date("2026-12-02T00:00:00.000Z"))).toEqual({
      day: "2026-12-02",
      fromSk: "AWARD#2026-12-01T23:55:00.000Z",
    });
    expect(todayOf(new Date("2026-01-01T00:10:00.000Z")).fromSk).toBe("AWARD#2025-12-31T23:55:00.000Z");
  });
});
