import { createHash } from "node:crypto";
import { BOARD_MAX_RANK, type BoardPosition, boardEntryOfSortKey, isIsoWeek } from "@rewards/core";
import { z } from "zod";

/**
 * A board page's cursor (docs/board.md#pages): base64url of the week, where the page ended (the
 * last entry's sort key, rank and XP, the entries listed so far) and a SHA-256 digest over them.
 * Opaque to callers; like the history's, the digest is an integrity check, not a secret: it
 * refuses garbage and edits, and a recomputed one can only place a page inside the same
 * public board. Pure.
 */
const CURSOR_VERSION = 1;

const cursorSchema = z.strictObject({
  v: z.literal(CURSOR_VERSION),
  w: z.string(),
  a: z.string(),
  r: z.number().int().min(1).max(BOARD_MAX_RANK),
  x: z.number().int().positive(),
  n: z.number().int().positive(),
  d: z.string(),
});

export interface BoardCursor extends BoardPosition {
  week: string;
}

const digestOf = (fields: readonly unknown[]) =>
  createHash("sha256")
    .update(JSON.stringify(["rewards-board-cursor", CURSOR_VERSION, ...fields]))
    .digest("base64url");

export function encodeBoardCursor({ week, after, rank, xp, listed }: BoardCursor): string {
  const fields = [week, after, rank, xp, listed];
  return Buffer.from(
    JSON.stringify({ v: CURSOR_VERSION, w: week, a: after, r: rank, x: xp, n: listed, d: digestOf(fields) }),
  ).toString("base64url");
}

/** The page end a cursor names; undefined when it is not one this reader gave, intact. */
export function decodeBoardCursor(cursor: string): BoardCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, "base64url");
  // Base64url decoding forgives stray trailing characters: only the exact text we encode is ours.
  if (bytes.toString("base64url") !== cursor) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { w: week, a: after, r: rank, x: xp, n: listed, d: digest } = parsed.data;
  if (digest !== digestOf([week, after, rank, xp, listed])) return undefined;
  if (!isIsoWeek(week) || boardEntryOfSortKey(after)?.xp !== xp || listed < rank) return undefined;
  return { week, after, rank, xp, listed };
}
