import { boardSortKey } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { decodeBoardCursor, encodeBoardCursor } from "../src/boardCursor";
import { checkedBoardCursor, checkedWeek } from "../src/readInput";

const position = { week: "2026-W49", after: boardSortKey(30, "bert"), rank: 2, xp: 30, listed: 2 };

describe("a board page's cursor", () => {
  it("reads back exactly what it was made of", () => {
    const cursor = encodeBoardCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBoardCursor(cursor)).toEqual(position);
  });

  it("refuses garbage, a letter added, a field edited, and a digest recomputed over a key of another shape", () => {
    const cursor = encodeBoardCursor(position);
    expect(decodeBoardCursor("abc")).toBeUndefined();
    expect(decodeBoardCursor(`${cursor}A`)).toBeUndefined();
    expect(decodeBoardCursor(cursor.slice(0, -2))).toBeUndefined();
    expect(decodeBoardCursor("not base64url!")).toBeUndefined();
    const json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const edited = (fields: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...json, ...fields })).toString("base64url");
    expect(decodeBoardCursor(edited({ r: 1 }))).toBeUndefined();
    expect(decodeBoardCursor(edited({ w: "2026-W48" }))).toBeUndefined();
    expect(decodeBoardCursor(edited({ extra: 1 }))).toBeUndefined();
    // A well-made cursor whose fields disagree (the key's XP is not its xp) is refused too.
    expect(decodeBoardCursor(encodeBoardCursor({ ...position, xp: 31 }))).toBeUndefined();
    expect(decodeBoardCursor(encodeBoardCursor({ ...position, week: "2025-W53" }))).toBeUndefined();
    expect(decodeBoardCursor(encodeBoardCursor({ ...position, listed: 1 }))).toBeUndefined();
  });

  it("belongs to its week: given with another week it is refused, naming the cursor", () => {
    const cursor = encodeBoardCursor(position);
    expect(checkedBoardCursor(cursor, undefined)).toEqual(position);
    expect(checkedBoardCursor(cursor, "2026-W49")).toEqual(position);
    expect(() => checkedBoardCursor(cursor, "2026-W48")).toThrow(
      "cursor: a cursor of the board of 2026-W49, not of 2026-W48",
    );
    expect(() => checkedBoardCursor(42, undefined)).toThrow(
      "cursor: not a cursor this reader gave for a board page (pass the page's cursor as it is)",
    );
    expect(checkedBoardCursor(undefined, "2026-W49")).toBeUndefined();
  });

  it("names a bad week", () => {
    expect(checkedWeek(undefined)).toBeUndefined();
    expect(checkedWeek("2026-W53")).toBe("2026-W53");
    expect(() => checkedWeek("2025-W53")).toThrow(
      'week: an ISO week such as "2026-W49" (a year, "-W", a week of that year), not "2025-W53"',
    );
    expect(() => checkedWeek(49)).toThrow('week: an ISO week such as "2026-W49"');
  });
});
