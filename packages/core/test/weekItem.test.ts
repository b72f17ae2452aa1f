import { describe, expect, it } from "vitest";
import {
  EMPTY_WEEK,
  sameWeek,
  weekAfter,
  weekExpiresAt,
  weekFactKey,
  weekHistoryStart,
  weekItemOf,
  weekOfHistory,
  weekPutCondition,
  weekStateOf,
  weekXpOf,
} from "../src/domain/board/weekItem";

const id = (n: number) => `grant-${String(n).repeat(43).slice(0, 43)}`;
const award = (n: number, xp: number) => ({ id: id(n), xp, revoked: false });
const revocation = (n: number, xp: number) => ({ id: id(n), xp, revoked: true });

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
    const state = weekAfter(EMPTY_WEEK, [award(1, 40), award(2, 20), revocation(3, 5)]);
    expect(weekItemOf({ ...input, state })).toEqual({
      pk: "USER#anna",
      sk: "WEEK#2026-W49",
      week: "2026-W49",
      xp: 60,
      counted: new Set([weekFactKey(id(1)), weekFactKey(id(2))]),
      revoked: new Set([weekFactKey(id(3))]),
      version: 3,
      updatedAt: "2026-12-03T10:00:00.000Z",
      expiresAt: weekExpiresAt("2026-W49", 8),
      boardPk: "BOARD#2026-W49#0",
      boardSk: "999999999999939#anna",
    });
    const gone = weekItemOf({ ...input, state: EMPTY_WEEK });
    expect(gone).not.toHaveProperty("boardPk");
    expect(gone).not.toHaveProperty("boardSk");
    // DynamoDB has no empty set.
    expect(gone).not.toHaveProperty("counted");
    expect(gone).not.toHaveProperty("revoked");
    expect(gone.xp).toBe(0);
    // Read back as written.
    const { changed: _, ...stored } = state;
    expect(weekStateOf({ ...weekItemOf({ ...input, state }) })).toEqual({ ...stored, version: 3 });
    expect(weekStateOf(undefined)).toEqual(EMPTY_WEEK);
  });

  it("names no 0-XP award (capped to nothing): the item grows only with awards that paid", () => {
    expect(weekAfter(EMPTY_WEEK, [award(1, 0), revocation(1, 0)])).toEqual({ ...EMPTY_WEEK, changed: false });
  });

  it("keeps off the board a user id too long for an index key (over 984 UTF-8 bytes), but keeps their week", () => {
    const input = {
      week: "2026-W49",
      version: 1,
      updatedAt: "2026-12-03T10:00:00.000Z",
      shards: 32,
      keepWeeks: 8,
    };
    const state = weekAfter(EMPTY_WEEK, [award(1, 20)]);
    const longest = `${"😀".repeat(253)}abc`;
    expect(weekItemOf({ ...input, userId: longest, state })).not.toHaveProperty("boardSk");
    expect(weekItemOf({ ...input, userId: longest, state }).xp).toBe(20);
    expect(weekItemOf({ ...input, userId: "😀".repeat(246), state })).toHaveProperty("boardSk");
    expect(weekItemOf({ ...input, userId: `${"😀".repeat(246)}a`, state })).not.toHaveProperty("boardSk");
  });

  it("keys an award by 16 characters of its id's digest", () => {
    expect(weekFactKey("grant-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("abcdefghijklmnop");
  });

  it("takes each award and revocation once, in any order, and never an award after its revocation", () => {
    const facts = [award(1, 20), award(2, 10), award(1, 20), revocation(2, 10), award(3, 5)];
    const once = weekAfter(EMPTY_WEEK, facts);
    expect(once).toMatchObject({ xp: 25, changed: true });
    expect([...once.counted].sort()).toEqual([1, 2, 3].map((n) => weekFactKey(id(n))));
    expect([...once.revoked]).toEqual([weekFactKey(id(2))]);
    // Everything again, reversed: nothing changes.
    expect(weekAfter(once, [...facts].reverse())).toEqual({ ...once, changed: false });
    // A revocation seen before its award (an older image replayed later): the award adds nothing.
    const early = weekAfter(EMPTY_WEEK, [revocation(4, 20)]);
    expect(early).toMatchObject({ xp: 0, changed: true });
    expect(weekAfter(early, [award(4, 20)])).toMatchObject({ xp: 0, changed: false });
    // Revoked twice: taken off once.
    expect(weekAfter(once, [revocation(1, 20), revocation(1, 20)])).toMatchObject({ xp: 5, changed: true });
  });

  it("is made from a history the same as from its awards applied one by one", () => {
    const history = [
      { id: id(1), earnedOn: "2026-12-01", xp: 20 },
      { id: id(2), earnedOn: "2026-12-02", xp: 10, revokedAt: "2026-12-02T10:00:00Z" },
      { id: id(3), earnedOn: "2026-11-29", xp: 5 },
    ];
    const made = weekOfHistory(history, "2026-W49");
    expect(made.xp).toBe(20);
    expect(made.xp).toBe(weekXpOf(history, "2026-W49"));
    const live = weekAfter(EMPTY_WEEK, [award(1, 20), award(2, 10), revocation(2, 10)]);
    expect(sameWeek(made, live)).toBe(true);
    // A revocation the live writer saw before its award: the same week.
    expect(sameWeek(made, weekAfter(EMPTY_WEEK, [award(1, 20), revocation(2, 10), award(2, 10)]))).toBe(true);
    expect(sameWeek(made, weekAfter(EMPTY_WEEK, [award(1, 20)]))).toBe(false);
    expect(sameWeek(made, weekAfter(EMPTY_WEEK, [award(1, 20), award(2, 10)]))).toBe(false);
    expect(sameWeek(made, { ...made, xp: 21 })).toBe(false);
  });

  it("is put only over the version it read (none: only where no item is)", () => {
    expect(weekPutCondition(undefined)).toEqual({ ConditionExpression: "attribute_not_exists(pk)" });
    expect(weekPutCondition(4)).toEqual({
      ConditionExpression: "version = :read",
      ExpressionAttributeValues: { ":read": 4 },
    });
  });
});
