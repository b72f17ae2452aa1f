import { describe, expect, it } from "vitest";
import { boardPageOf, rankAfterCount, rankOf } from "../src/domain/board/boardRanks";
import {
  boardEntryOfSortKey,
  boardPartition,
  boardShardOf,
  boardSortKey,
} from "../src/domain/table/tableLayout";

const key = boardSortKey;
/** Sort keys sorted as the index sorts them (each shard comes back in order). */
const shard = (...keys: string[]) => [...keys].sort();

describe("the board's keys", () => {
  it("sorts most XP first, equal XP by user id, as text", () => {
    const keys = [key(30, "b"), key(5, "a"), key(60, "z"), key(30, "a"), key(1_000_000, "m")];
    expect([...keys].sort().map((sk) => boardEntryOfSortKey(sk))).toEqual([
      { xp: 1_000_000, userId: "m" },
      { xp: 60, userId: "z" },
      { xp: 30, userId: "a" },
      { xp: 30, userId: "b" },
      { xp: 5, userId: "a" },
    ]);
    expect(key(60, "z")).toBe("999999999999939#z");
    expect(boardEntryOfSortKey("999999999999939#user#with#hashes")).toEqual({
      xp: 60,
      userId: "user#with#hashes",
    });
  });

  it("reads back nothing from text of another shape", () => {
    for (const text of [
      "",
      "999999999999939",
      "999999999999939#",
      "99999999999993x#a",
      "99999999999939#a",
      42,
    ])
      expect(boardEntryOfSortKey(text)).toBeUndefined();
  });

  it("keeps a user in one shard, spread over all of them", () => {
    expect(boardShardOf("anna", 32)).toBe(boardShardOf("anna", 32));
    const used = new Set(Array.from({ length: 1000 }, (_, i) => boardShardOf(`user-${i}`, 32)));
    expect(used.size).toBe(32);
    expect(Math.max(...used)).toBe(31);
    expect(boardShardOf("anna", 1)).toBe(0);
    expect(boardPartition("2026-W49", 7)).toBe("BOARD#2026-W49#7");
  });
});

describe("a page of the board", () => {
  const shards = [shard(key(60, "a"), key(30, "c")), shard(key(30, "b"), key(5, "d")), []];

  it("merges the shards, ranks ties 1, 2, 2, 4, and says there is no next page", () => {
    expect(boardPageOf(shards, 20)).toEqual({
      entries: [
        { rank: 1, userId: "a", xp: 60 },
        { rank: 2, userId: "b", xp: 30 },
        { rank: 2, userId: "c", xp: 30 },
        { rank: 4, userId: "d", xp: 5 },
      ],
    });
  });

  it("ends a full page where the next starts, keeping a tie's rank across the page", () => {
    const first = boardPageOf(shards, 2);
    expect(first).toEqual({
      entries: [
        { rank: 1, userId: "a", xp: 60 },
        { rank: 2, userId: "b", xp: 30 },
      ],
      next: { after: key(30, "b"), rank: 2, xp: 30, listed: 2 },
    });
    // The index answers the next page with the keys after `after`.
    const rest = shards.map((keys) => keys.filter((sk) => sk > key(30, "b")));
    expect(boardPageOf(rest, 2, first.next)).toEqual({
      entries: [
        { rank: 2, userId: "c", xp: 30 },
        { rank: 4, userId: "d", xp: 5 },
      ],
    });
  });

  it("has no next page when the page is exactly the rest", () => {
    expect(boardPageOf(shards, 4).next).toBeUndefined();
    expect(boardPageOf(shards, 3).next).toEqual({ after: key(30, "c"), rank: 2, xp: 30, listed: 3 });
  });

  it("lists ranks up to 1,000 and nothing past them", () => {
    const at = { after: key(100, "x"), rank: 999, xp: 100, listed: 999 };
    // Rank 1,000 is listed; a tie with it too; the next rank (1,002) is not, and no cursor leads to it.
    const keys = shard(key(90, "a"), key(90, "b"), key(80, "c"));
    expect(boardPageOf([keys], 20, at)).toEqual({
      entries: [
        { rank: 1000, userId: "a", xp: 90 },
        { rank: 1000, userId: "b", xp: 90 },
      ],
    });
    expect(boardPageOf([keys], 1, at)).toEqual({
      entries: [{ rank: 1000, userId: "a", xp: 90 }],
      next: { after: key(90, "a"), rank: 1000, xp: 90, listed: 1000 },
    });
    // After rank 1,000 with more XP than what follows: the next would be 1,001.
    expect(boardPageOf([keys], 20, { ...at, rank: 1000, listed: 1000 })).toEqual({ entries: [] });
  });

  it("is empty for an empty week", () => {
    expect(boardPageOf([[], []], 20)).toEqual({ entries: [] });
  });
});

describe("a reader's rank", () => {
  const tops = [
    { sortKeys: shard(key(60, "a"), key(30, "c")), more: false },
    { sortKeys: shard(key(30, "b"), key(5, "d")), more: false },
  ];

  it("is 1 + the readers with more XP; equal XP share it", () => {
    expect(rankOf("a", 60, tops)).toEqual({ kind: "ranked", rank: 1 });
    expect(rankOf("b", 30, tops)).toEqual({ kind: "ranked", rank: 2 });
    expect(rankOf("c", 30, tops)).toEqual({ kind: "ranked", rank: 2 });
    expect(rankOf("d", 5, tops)).toEqual({ kind: "ranked", rank: 4 });
  });

  it("never counts the reader's own entry, even an older one with more XP (the index lags)", () => {
    expect(rankOf("c", 20, tops)).toEqual({ kind: "ranked", rank: 3 });
    expect(rankOf("a", 40, tops)).toEqual({ kind: "ranked", rank: 1 });
  });

  it("is none without XP", () => {
    expect(rankOf("e", 0, tops)).toEqual({ kind: "unranked" });
  });

  it("counts a shard further only when all of its top was ahead and it holds more", () => {
    const truncated = [
      { sortKeys: shard(key(60, "a"), key(50, "f")), more: true },
      { sortKeys: shard(key(30, "b")), more: false },
    ];
    expect(rankOf("x", 40, truncated)).toEqual({ kind: "countMore", ahead: 2, shards: [0] });
    // A shard whose top reaches below the reader needs nothing more.
    expect(rankOf("x", 55, truncated)).toEqual({ kind: "ranked", rank: 2 });
    expect(rankAfterCount(2, 5)).toEqual({ kind: "ranked", rank: 8 });
    expect(rankAfterCount(2, 997)).toEqual({ kind: "ranked", rank: 1000 });
    expect(rankAfterCount(2, 998)).toEqual({ kind: "unranked" });
  });

  it("is none past 1,000, without counting further", () => {
    const keys = Array.from({ length: 1000 }, (_, i) => key(1001 - i, `u${String(i).padStart(4, "0")}`));
    expect(rankOf("me", 1, [{ sortKeys: shard(...keys), more: true }])).toEqual({ kind: "unranked" });
    expect(rankOf("me", 1, [{ sortKeys: shard(...keys.slice(1)), more: false }])).toEqual({
      kind: "ranked",
      rank: 1000,
    });
  });
});
