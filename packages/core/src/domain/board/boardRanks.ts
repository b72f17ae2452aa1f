import { boardEntryOfSortKey } from "../table/tableLayout";

/**
 * Ranks on the week's board (docs/board.md#ranks), from the board index's shards read in
 * parallel. Equal XP share a rank (1, 2, 2, 4), ordered by user id; only ranks up to 1,000 are
 * listed. Pure.
 */
export const BOARD_MAX_RANK = 1000;

export interface BoardEntry {
  rank: number;
  userId: string;
  xp: number;
}

/** Where a page of the board ends, so the next one starts after it. */
export interface BoardPosition {
  /** The last listed entry's board sort key. */
  after: string;
  /** Its rank and XP, which decide the next entry's rank when it ties. */
  rank: number;
  xp: number;
  /** Entries listed so far, this page's included. */
  listed: number;
}

/** DynamoDB orders string keys by their UTF-8 bytes; so must the merge. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * One page of the board from each shard's first `limit` + 1 sort keys after `from` (every entry of
 * the page is among them): merged in the index's order, ranked, cut at the top 1,000 ranks.
 * `next` is where the following page starts, absent when nothing ranked is left.
 */
export function boardPageOf(
  shards: ReadonlyArray<readonly string[]>,
  limit: number,
  from?: BoardPosition,
): { entries: BoardEntry[]; next?: BoardPosition } {
  const merged = shards
    .flat()
    .sort(byBytes)
    .slice(0, limit + 1);
  const entries: BoardEntry[] = [];
  let previous = from ? { rank: from.rank, xp: from.xp } : undefined;
  let listed = from?.listed ?? 0;
  let next: BoardPosition | undefined;
  for (const [index, sk] of merged.entries()) {
    const entry = boardEntryOfSortKey(sk);
    if (!entry) continue;
    const rank = previous !== undefined && previous.xp === entry.xp ? previous.rank : listed + 1;
    if (rank > BOARD_MAX_RANK) break;
    if (index === limit) {
      const last = entries.at(-1);
      if (last) next = { after: merged[index - 1] as string, rank: last.rank, xp: last.xp, listed };
      break;
    }
    entries.push({ rank, userId: entry.userId, xp: entry.xp });
    previous = { rank, xp: entry.xp };
    listed++;
  }
  return next ? { entries, next } : { entries };
}

/** A shard's first entries, and whether it holds more after them. */
export interface ShardTop {
  sortKeys: readonly string[];
  more: boolean;
}

export type RankReading =
  | { kind: "ranked"; rank: number }
  | { kind: "unranked" }
  /** Shards whose first entries were all ahead: count the rest of each past `counted` (rare). */
  | { kind: "countMore"; ahead: number; shards: number[] };

/**
 * A reader's rank from each shard's first entries (docs/board.md#your-rank): 1 + the readers with
 * more XP (their own entry, perhaps not yet updated in the index, never counts). None without XP,
 * or past 1,000. A shard whose first entries are all ahead and holds more needs counting further,
 * unless the others already put the reader past 1,000.
 */
export function rankOf(userId: string, xp: number, tops: readonly ShardTop[]): RankReading {
  if (xp <= 0) return { kind: "unranked" };
  let ahead = 0;
  const truncated: number[] = [];
  tops.forEach((top, shard) => {
    let all = true;
    for (const sk of top.sortKeys) {
      const entry = boardEntryOfSortKey(sk);
      if (!entry || entry.userId === userId) continue;
      if (entry.xp > xp) ahead++;
      else all = false;
    }
    if (all && top.more) truncated.push(shard);
  });
  if (ahead + 1 > BOARD_MAX_RANK) return { kind: "unranked" };
  if (truncated.length > 0) return { kind: "countMore", ahead, shards: truncated };
  return { kind: "ranked", rank: ahead + 1 };
}

/** The rank once the truncated shards were counted further: `more` readers ahead beyond `ahead`. */
export function rankAfterCount(ahead: number, more: number): RankReading {
  const rank = ahead + more + 1;
  return rank > BOARD_MAX_RANK ? { kind: "unranked" } : { kind: "ranked", rank };
}
