import type { AnnouncementWords } from "@rewards/ops";
import Table from "cli-table3";

/**
 * `grants tail`'s columns and their widths, the same for the whole run whatever arrives: a
 * longer value ends in "…" (`--json` prints every event whole). An id is 49 to 51 characters.
 */
const COLUMNS = { time: 24, event: 15, user: 24, what: 32, id: 51 } as const;
const NAMES = Object.keys(COLUMNS) as Array<keyof typeof COLUMNS>;
/** cli-table3's widths count the space on each side (two after each, without borders). */
const WIDTHS = Object.values(COLUMNS).map((width) => width + 2);
const NO_LINES = Object.fromEntries(
  ["top", "bottom", "mid"].flatMap((line) =>
    [line, `${line}-mid`, `${line}-left`, `${line}-right`, `left-${line}`, `right-${line}`].map((c) => [
      c,
      "",
    ]),
  ),
);

/** Rows of cells at the fixed widths: `│ … │ … │` (or, with `borders` off, two spaces between). */
function rowsText(cells: string[][], borders = true): string {
  if (cells.length === 0) return "";
  const table = new Table({
    colWidths: WIDTHS,
    chars: borders ? NO_LINES : { ...NO_LINES, left: "", middle: "", right: "" },
    style: { head: [], border: [], ...(borders ? {} : { "padding-left": 0, "padding-right": 2 }) },
  });
  table.push(...cells);
  return `${table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")}\n`;
}

/** Columns a code point takes, at least as many as cli-table3 counts: two for emoji and East Asian wide ones. */
const columnsOf = (point: number) =>
  point > 0xffff ||
  (point >= 0x1100 &&
    /[\u1100-\u115f\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
      String.fromCodePoint(point),
    ))
    ? 2
    : 1;

/** `value` in `width` columns, its end cut to "…" (by whole code points: cli-table3 would split a surrogate pair). */
function fitted(value: string, width: number): string {
  const points = [...value];
  const columns = points.map((point) => columnsOf(point.codePointAt(0) ?? 0));
  if (columns.reduce((sum, n) => sum + n, 0) <= width) return value;
  let used = 1; // the "…"
  let kept = "";
  for (const [i, point] of points.entries()) {
    used += columns[i] ?? 1;
    if (used > width) break;
    kept += point;
  }
  return `${kept}…`;
}

const line = (left: string, middle: string, right: string) =>
  `${left}${WIDTHS.map((width) => "─".repeat(width)).join(middle)}${right}\n`;
const cellsOf = (words: readonly AnnouncementWords[]) =>
  words.map((word) => NAMES.map((name) => fitted(word[name], COLUMNS[name])));

/**
 * Without --follow, one table for the whole run, printed as it goes: its head with the first
 * rows, more rows with each batch (printed before the batch is deleted), its foot at the end.
 */
export const tailTable = {
  head: () => line("┌", "┬", "┐") + rowsText([NAMES]) + line("├", "┼", "┤"),
  rows: (words: readonly AnnouncementWords[]) => rowsText(cellsOf(words)),
  foot: () => line("└", "┴", "┘"),
};

/** With --follow: one line per event, the same columns at the same widths, no borders. */
export const tailLines = (words: readonly AnnouncementWords[]) => rowsText(cellsOf(words), false);
