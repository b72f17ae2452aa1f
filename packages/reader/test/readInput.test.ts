import { grantId } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, isHistorySortKey } from "../src/historyCursor";
import { InvalidReadInput, type ReadParameter } from "../src/invalidReadInput";
import { checkedCursor, checkedLimit, checkedTimeZone, checkedUserId, checkedWeek } from "../src/readInput";
import { todayOf } from "../src/today";

/** What `read` throws, or undefined when it does not. */
function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** It threw InvalidReadInput (a RangeError) naming `parameter`, with exactly this message. */
function expectRefused(read: () => unknown, parameter: ReadParameter, message: string) {
  const error = thrown(read);
  expect(error).toBeInstanceOf(InvalidReadInput);
  expect(error).toBeInstanceOf(RangeError);
  expect(error).toMatchObject({ name: "InvalidReadInput", parameter, message });
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("the reader's input checks: InvalidReadInput naming the parameter", () => {
  it("userId: the envelope's rule (1–256 characters of well-formed Unicode)", () => {
    expect(checkedUserId("user123")).toBe("user123");
    expect(checkedUserId("x".repeat(256))).toBe("x".repeat(256));
    for (const [bad, message] of [
      ["", 'must be 1 to 256 characters ("")'],
      // The message quotes at most the first 64 characters of an input (core's quoteInput).
      ["x".repeat(257), `must be 1 to 256 characters ("${"x".repeat(64)}…" (257 characters))`],
      ["\ud800", 'must be well-formed Unicode (no lone surrogates) ("\\ud800")'],
      [42, "Invalid input: expected string, received number (42)"],
      [undefined, "Invalid input: expected string, received undefined (undefined)"],
    ] as const)
      expectRefused(() => checkedUserId(bad), "userId", `userId: ${message}`);
  });

  it("limit: an integer from 1 to 100, 20 when absent; text is quoted", () => {
    expect(checkedLimit(undefined)).toBe(20);
    expect(checkedLimit(1)).toBe(1);
    expect(checkedLimit(100)).toBe(100);
    for (const [bad, shown] of [
      [0, "0"],
      [101, "101"],
      [2.5, "2.5"],
      [-1, "-1"],
      [Number.NaN, "NaN"],
      ["5", '"5"'],
      [null, "null"],
      ["9".repeat(300), `"${"9".repeat(64)}…" (300 characters)`],
    ] as const)
      expectRefused(() => checkedLimit(bad), "limit", `limit: an integer from 1 to 100, not ${shown}`);
  });

  it("a message quotes at most the first 64 characters of any input, whatever its parameter", () => {
    const long = `${"u".repeat(64)}${"Ω".repeat(193)}`;
    const inputs: Array<[ReadParameter, () => unknown]> = [
      ["userId", () => checkedUserId(long)],
      ["limit", () => checkedLimit(long)],
      ["timeZone", () => checkedTimeZone(long)],
      ["week", () => checkedWeek(long)],
    ];
    for (const [parameter, read] of inputs) {
      const error = thrown(read) as InvalidReadInput;
      expect(error).toMatchObject({ parameter });
      expect(error.message).toContain(`"${"u".repeat(64)}…" (257 characters)`);
      expect(error.message).not.toContain("Ω");
    }
  });
});

describe("cursors: only one this reader gave, for this user, intact, naming a key of the history", () => {
  const awardedAt = "2026-12-02T10:00:00.000Z";
  const sk = `AWARD#${awardedAt}#${grantId("u1#a#article.completed", awardedAt)}`;
  const NOT_OURS =
    "cursor: not a cursor this reader gave for this user's history (pass the page's cursor as it is)";

  it("a cursor it gave reads back as its key, for its user only", () => {
    const cursor = encodeCursor("u1", sk);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(checkedCursor("u1", cursor)).toBe(sk);
    expect(decodeCursor("u1", cursor)).toEqual({ ok: true, sk });
    expect(checkedCursor("u1", undefined)).toBeUndefined();
    // The user is bound by the digest, not written in the cursor.
    expect(JSON.parse(Buffer.from(cursor, "base64url").toString())).toEqual({
      v: 2,
      k: sk,
      d: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });

  it("another user's, an edited, a hand-made or a garbled cursor is refused as not ours", () => {
    const ours = JSON.parse(Buffer.from(encodeCursor("u1", sk), "base64url").toString()) as {
      v: number;
      k: string;
      d: string;
    };
    const later = "2026-12-02T11:00:00.000Z";
    const otherSk = `AWARD#${later}#${grantId("u1#b#article.completed", later)}`;
    const refused = [
      encodeCursor("u2", sk), // another user's
      b64({ ...ours, k: otherSk }), // its key edited, the digest left
      b64({ ...ours, d: ours.d.replace(/^./, (c) => (c === "A" ? "B" : "A")) }), // its digest edited
      b64({ v: 2, k: sk }), // no digest
      b64({ ...ours, extra: 1 }), // more than we write
      b64({ ...ours, v: 3 }), // a version we never wrote
      encodeCursor("u1", "AWARD#9"), // a valid digest over a key the history never holds
      encodeCursor("u1", "PROFILE"),
      encodeCursor("u1", `AWARD#${awardedAt}#grant-short`),
      encodeCursor("u1", `AWARD#yesterday#${grantId("x", awardedAt)}`),
      encodeCursor("u1", `AWARD#2026-02-30T10:00:00.000Z#${grantId("x", awardedAt)}`), // no such day
      encodeCursor("u1", `AWARD#${awardedAt}#${grantId("x", awardedAt)}#more`),
      // An instant of RFC 3339's shape, but a key DynamoDB refuses (over 1,024 bytes).
      encodeCursor("u1", `AWARD#2026-12-02T10:00:00.${"0".repeat(1024)}Z#${grantId("x", awardedAt)}`),
      "not a cursor!",
      "e30", // {}
      "",
      b64("[1,").slice(0, -1),
      Buffer.from("[1,").toString("base64url"),
      encodeCursor("u1", sk).slice(0, -4), // cut short
      `${encodeCursor("u1", sk)}A`, // a letter added: base64url still decodes it to the same JSON
    ];
    for (const bad of refused) {
      expect(decodeCursor("u1", bad), bad).toEqual({ ok: false, reason: "notOurs" });
      expectRefused(() => checkedCursor("u1", bad), "cursor", NOT_OURS);
    }
    expectRefused(() => checkedCursor("u1", 7), "cursor", NOT_OURS);
  });

  it("a cursor from before the digest (version 1) is refused with its own message", () => {
    const old = b64({ v: 1, u: "u1", k: sk });
    expect(decodeCursor("u1", old)).toEqual({ ok: false, reason: "olderVersion", version: 1 });
    expectRefused(
      () => checkedCursor("u1", old),
      "cursor",
      "cursor: a cursor of an earlier reader (version 1), no longer taken: read the history again from its first page",
    );
    // The hand-made one of the old shape too: refused, never read.
    expect(decodeCursor("u1", b64({ v: 1, u: "u1", k: "AWARD#9" }))).toMatchObject({ ok: false });
  });

  it("a history key is AWARD#<RFC 3339 instant>#<grant id>, as the history writes it", () => {
    expect(isHistorySortKey(sk)).toBe(true);
    // Any instant the history item's schema takes (an offset, a longer fraction).
    expect(isHistorySortKey(`AWARD#2026-12-02T10:00:00.123456+01:00#${grantId("x", awardedAt)}`)).toBe(true);
    for (const bad of [
      "AWARD#9",
      `AWARD#${awardedAt}`,
      `AWARD##${grantId("x", awardedAt)}`,
      `AWARD#${awardedAt}#grant-${"A".repeat(42)}`,
      `AWARD#${awardedAt}#grant-${"A".repeat(44)}`,
      `award#${awardedAt}#${grantId("x", awardedAt)}`,
      `DAY#2026-12-02`,
    ])
      expect(isHistorySortKey(bad), bad).toBe(false);
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
