import { describe, expect, it } from "vitest";
import {
  weekExpiresAt,
  weekHistoryStart,
  weekItemOf,
  weekPutCondition,
  weekXpOf,
} from "../src/domain/weekItem";

describe("a reader's week", () => {
  it("sums the paid XP of the unrevoked awards earned in the week, and nothing else", () => {
    const awards = [
      { earnedOn: "2026-11-30", xp: 20 }, // Monday
      { earnedOn: "2026-12-06", xp: 10 }, // Sunday
      { earnedOn: "2026-12-03", xp: 0 }, // capped
      { earnedOn: "2026-12-03", xp: 20, revokedAt: "2026-12-03T10:00:00Z" },
      { earnedOn: "2026-11-29", xp: 100 }, // the Sunday before
      { earnedOn: "2026-12-07", xp: 5 }, // the Monday after
    ];
    expect(weekXpOf(awards, "2026-W49")).toBe(30);
    expect(weekXpOf(awards, "2026-W48")).toBe(100);
    expect(weekXpOf(awards, "2026-W50")).toBe(5);
    expect(weekXpOf([], "2026-W49")).toBe(0);
  });

  it("reads the history from 5 minutes before the week's Monday (an event may run that far ahead of the clock)", () => {
    expect(weekHistoryStart("2026-W49")).toBe("AWARD#2026-11-29T23:55:00.000Z");
  });

  it("keeps a week's items the given number of weeks after it ends", () => {
    // 2026-W49 ends Monday 2026-12-07; 8 weeks later is Monday 2027-02-01.
    expect(new Date(weekExpiresAt("2026-W49", 8) * 1000).toISOString()).toBe("2027-02-01T00:00:00.000Z");
    expect(new Date(weekExpiresAt("2026-W49", 1) * 1000).toISOString()).toBe("2026-12-14T00:00:00.000Z");
  });

  it("is an item in the reader's partition, on the board (its index keys) only with XP", () => {
    const input = {
      userId: "anna",
      week: "2026-W49",
      version: 3,
      updatedAt: "2026-12-03T10:00:00.000Z",
      shards: 1,
      keepWeeks: 8,
    };
    expect(weekItemOf({ ...input, xp: 60 })).toEqual({
      pk: "USER#anna",
      sk: "WEEK#2026-W49",
      week: "2026-W49",
      xp: 60,
      version: 3,
      updatedAt: "2026-12-03T10:00:00.000Z",
      expiresAt: weekExpiresAt("2026-W49", 8),
      boardPk: "BOARD#2026-W49#0",
      boardSk: "999999999999939#anna",
    });
    const gone = weekItemOf({ ...input, xp: 0 });
    expect(gone).not.toHaveProperty("boardPk");
    expect(gone).not.toHaveProperty("boardSk");
    expect(gone.xp).toBe(0);
  });

  it("is put only over the version it read (none: only where no item is)", () => {
    expect(weekPutCondition(undefined)).toEqual({ ConditionExpression: "attribute_not_exists(pk)" });
    expect(weekPutCondition(4)).toEqual({
      ConditionExpression: "version = :read",
      ExpressionAttributeValues: { ":read": 4 },
    });
  });
});
