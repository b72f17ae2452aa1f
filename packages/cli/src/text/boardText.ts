import { isoWeekDays } from "@rewards/core";
import type { Board } from "@rewards/reader";
import { tableText } from "../runtime/text";

/** The page size `rewards board` asks for unless told: the reader's own default. */
export const BOARD_PAGE = 20;

/**
 * A board page as `rewards board` prints it: the week and its days (a week is UTC's, which a
 * reader elsewhere may not assume), the entries' table, then the command for the next page.
 */
export function boardText(page: Board, limit: number): string {
  const { first, last } = isoWeekDays(page.week);
  const head = `week ${page.week} (${first} to ${last}, UTC)`;
  if (page.entries.length === 0) return `${head}: no one on the board\n`;
  const rows = page.entries.map(({ rank, userId, xp }) => ({ rank, user: userId, XP: xp }));
  // The week is in the hint although the cursor carries it: the command reads the same as it runs.
  const next =
    page.cursor === undefined
      ? ""
      : `next page: rewards board --week ${page.week}${limit === BOARD_PAGE ? "" : ` --limit ${limit}`} --cursor ${page.cursor}\n`;
  return `${head}\n${tableText(rows, ["rank", "user", "XP"])}${next}`;
}
