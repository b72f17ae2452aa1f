import { userIdSchema } from "@rewards/core";
import { decodeCursor } from "./historyCursor";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** The user id, checked as the events' envelope checks it; a RangeError naming `userId` otherwise. */
export function checkedUserId(userId: unknown): string {
  const parsed = userIdSchema.safeParse(userId);
  if (!parsed.success)
    throw new RangeError(
      `userId: ${parsed.error.issues[0]?.message ?? "invalid"} (${JSON.stringify(userId) ?? String(userId)})`,
    );
  return parsed.data;
}

/** A page's limit: 1–100, default 20; a RangeError naming `limit` otherwise. */
export function checkedLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new RangeError(`limit: an integer from 1 to ${MAX_PAGE_LIMIT}, not ${String(limit)}`);
  return limit;
}

/** The sort key a cursor continues after (undefined: the first page); a RangeError naming `cursor` otherwise. */
export function checkedCursor(userId: string, cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  const sk = typeof cursor === "string" ? decodeCursor(userId, cursor) : undefined;
  if (sk === undefined)
    throw new RangeError(
      "cursor: not a cursor this reader gave for this user's history (pass the page's cursor as it is)",
    );
  return sk;
}
