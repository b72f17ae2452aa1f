import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  AWARD_SK_PREFIX,
  BOARD_MAX_RANK,
  isoWeekOf,
  userOfKey,
  WEEK_SK_PREFIX,
  weekOfKey,
} from "@rewards/core";
import { keptWeeks, scanTable } from "@rewards/ops";
import { type Board, createReader } from "@rewards/reader";

export interface BoardCheck {
  /** Readers and weeks with XP, summed from the history. */
  readerWeeks: number;
  /** Entries on this week's board, read page by page through the reader. */
  onBoard: number;
  /** What is not exactly as it must be, one line each. */
  mismatched: string[];
}

export interface BoardCheckOptions {
  /** REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS, as the history's writer ran with them. */
  shards: number;
  keepWeeks: number;
  /** Epoch ms. */
  now?: number;
}

/** DynamoDB orders user ids by their UTF-8 bytes; so does the board. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The board the sums make: most XP first, equal XP by user, ranked 1, 2, 2, 4, cut at 1,000. */
function expectedBoard(sums: ReadonlyMap<string, number>): Board["entries"] {
  const sorted = [...sums].filter(([, xp]) => xp > 0).sort(([a, x], [b, y]) => y - x || byBytes(a, b));
  const entries: Board["entries"] = [];
  sorted.forEach(([userId, xp], index) => {
    const previous = entries.at(-1);
    const rank = previous?.xp === xp ? previous.rank : index + 1;
    if (rank <= BOARD_MAX_RANK) entries.push({ rank, userId, xp });
  });
  return entries;
}

/**
 * The week's board, exactly (docs/board.md): from one paged scan, every reader's XP of every kept
 * week summed over their unrevoked history items, against their week item; then this week's
 * board, read through the reader page by page, against the board those sums make.
 */
export async function checkBoard(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  options: BoardCheckOptions,
): Promise<BoardCheck> {
  const now = options.now ?? Date.now();
  const kept = new Set(keptWeeks(now, options.keepWeeks));
  const sums = new Map<string, Map<string, number>>();
  const stored = new Map<string, Map<string, number>>();
  const add = (all: Map<string, Map<string, number>>, week: string, userId: string, xp: number) => {
    const users = all.get(week) ?? new Map<string, number>();
    users.set(userId, (users.get(userId) ?? 0) + xp);
    all.set(week, users);
  };
  for await (const page of scanTable(dynamo, { TableName: tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) {
      const userId = userOfKey(item.pk);
      const sk = String(item.sk);
      if (userId === undefined) continue;
      const xp = typeof item.xp === "number" ? item.xp : 0;
      if (
        sk.startsWith(AWARD_SK_PREFIX) &&
        item.revokedAt === undefined &&
        typeof item.earnedOn === "string"
      ) {
        const week = isoWeekOf(item.earnedOn);
        if (kept.has(week)) add(sums, week, userId, xp);
      } else if (sk.startsWith(WEEK_SK_PREFIX)) {
        const week = weekOfKey(sk) ?? "";
        if (kept.has(week)) add(stored, week, userId, xp);
      }
    }
  }
  const mismatched: string[] = [];
  let readerWeeks = 0;
  for (const week of kept) {
    const summed = sums.get(week) ?? new Map<string, number>();
    const written = stored.get(week) ?? new Map<string, number>();
    for (const userId of new Set([...summed.keys(), ...written.keys()])) {
      const history = summed.get(userId) ?? 0;
      const item = written.get(userId) ?? 0;
      if (history > 0) readerWeeks++;
      if (history !== item) mismatched.push(`${userId}: ${week} on the board ${item} XP, history ${history}`);
    }
  }

  const week = isoWeekOf(now);
  const reader = createReader({ tableName, client: dynamo, boardShards: options.shards });
  const listed: Board["entries"] = [];
  let cursor: string | undefined;
  do {
    const page = await reader.board({ week, limit: 100, ...(cursor ? { cursor } : {}) });
    listed.push(...page.entries);
    cursor = page.cursor;
  } while (cursor);
  const expected = expectedBoard(sums.get(week) ?? new Map());
  if (JSON.stringify(listed) !== JSON.stringify(expected)) {
    const first = listed.findIndex((entry, i) => JSON.stringify(entry) !== JSON.stringify(expected[i]));
    mismatched.push(
      `board of ${week}: ${listed.length} entries for ${expected.length} readers with XP; first difference at ${first === -1 ? listed.length : first}: ${JSON.stringify(listed[first] ?? null)} for ${JSON.stringify(expected[first === -1 ? listed.length : first] ?? null)}`,
    );
  }
  return { readerWeeks, onBoard: listed.length, mismatched };
}
