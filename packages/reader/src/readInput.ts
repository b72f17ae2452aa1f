import { isIsoWeek, quoteInput, userIdSchema } from "@rewards/core";
import { type BoardCursor, decodeBoardCursor } from "./boardCursor";
import { decodeCursor } from "./historyCursor";
import { InvalidReadInput } from "./invalidReadInput";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** The user id, checked as the events' envelope checks it; InvalidReadInput naming `userId` otherwise. */
export function checkedUserId(userId: unknown): string {
  const parsed = userIdSchema.safeParse(userId);
  if (!parsed.success)
    throw new InvalidReadInput(
      "userId",
      `${parsed.error.issues[0]?.message ?? "invalid"} (${quoteInput(userId)})`,
    );
  return parsed.data;
}

/** A page's limit: 1–100, default 20; InvalidReadInput naming `limit` otherwise. */
export function checkedLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new InvalidReadInput("limit", `an integer from 1 to ${MAX_PAGE_LIMIT}, not ${quoteInput(limit)}`);
  return limit;
}

/**
 * The sort key a cursor continues after (undefined: the first page); InvalidReadInput naming
 * `cursor` otherwise (docs/reading.md#cursors).
 */
export function checkedCursor(userId: string, cursor: unknown): string | undefined {
  if (cursor === undefined) return undefined;
  const decoded =
    typeof cursor === "string" ? decodeCursor(userId, cursor) : ({ ok: false, reason: "notOurs" } as const);
  if (decoded.ok) return decoded.sk;
  throw new InvalidReadInput(
    "cursor",
    decoded.reason === "olderVersion"
      ? `a cursor of an earlier reader (version ${decoded.version}), no longer taken: read the history again from its first page`
      : "not a cursor this reader gave for this user's history (pass the page's cursor as it is)",
  );
}

/**
 * The zone a streak's today is read in (docs/reading.md#streaks): an IANA name the runtime
 * knows (`Europe/Paris`, `UTC`), UTC unless given; InvalidReadInput naming `timeZone` otherwise.
 */
export function checkedTimeZone(timeZone: unknown): string {
  if (timeZone === undefined) return "UTC";
  if (typeof timeZone === "string" && timeZone !== "")
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
    } catch {
      // Intl's RangeError: not a zone it knows; said below in our words.
    }
  throw new InvalidReadInput(
    "timeZone",
    `an IANA time zone such as "Europe/Paris" or "UTC", not ${quoteInput(timeZone)}`,
  );
}

/** A board's week (`2026-W49`, docs/board.md#the-week); undefined when not given; InvalidReadInput naming `week` otherwise. */
export function checkedWeek(week: unknown): string | undefined {
  if (week === undefined) return undefined;
  if (isIsoWeek(week)) return week;
  throw new InvalidReadInput(
    "week",
    `an ISO week such as "2026-W49" (a year, "-W", a week of that year), not ${quoteInput(week)}`,
  );
}

/**
 * Where a board page continues (undefined: the first page), for the week asked, or the cursor's
 * own when none is; InvalidReadInput naming `cursor` otherwise.
 */
export function checkedBoardCursor(cursor: unknown, week: string | undefined): BoardCursor | undefined {
  if (cursor === undefined) return undefined;
  const decoded = typeof cursor === "string" ? decodeBoardCursor(cursor) : undefined;
  if (decoded === undefined)
    throw new InvalidReadInput(
      "cursor",
      "not a cursor this reader gave for a board page (pass the page's cursor as it is)",
    );
  if (week !== undefined && decoded.week !== week)
    throw new InvalidReadInput("cursor", `a cursor of the board of ${decoded.week}, not of ${week}`);
  return decoded;
}
