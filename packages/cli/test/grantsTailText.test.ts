import type { AnnouncementWords } from "@rewards/ops";
import { describe, expect, it } from "vitest";
import { tailLines, tailTable } from "../src/text/grantsTailText";

const granted: AnnouncementWords = {
  time: "2026-12-01T10:00:01.234Z",
  event: "reward.granted",
  user: "u2",
  what: "article.completed +20 XP",
  id: `grant-${"a".repeat(43)}`,
};
const achieved: AnnouncementWords = {
  time: "2026-12-01T10:00:01.456Z",
  event: "reward.achieved",
  user: "a-reader-whose-id-is-longer-than-the-column",
  what: "first-article (First article, a title longer than its column)",
  id: `achieve-${"b".repeat(43)}`,
};

describe("grants tail's text: fixed columns, whatever arrives", () => {
  it("one table: the head, rows batch after batch at the same widths, the foot; a longer value ends in …", () => {
    const text =
      tailTable.head() +
      tailTable.rows([granted]) +
      tailTable.rows([]) +
      tailTable.rows([achieved]) +
      tailTable.foot();
    const bar = (left: string, middle: string, right: string) =>
      `${left}${[26, 17, 26, 34, 53].map((width) => "─".repeat(width)).join(middle)}${right}`;
    expect(text.split("\n")).toEqual([
      bar("┌", "┬", "┐"),
      "│ time                     │ event           │ user                     │ what                             │ id                                                  │",
      bar("├", "┼", "┤"),
      `│ 2026-12-01T10:00:01.234Z │ reward.granted  │ u2                       │ article.completed +20 XP         │ grant-${"a".repeat(43)}   │`,
      `│ 2026-12-01T10:00:01.456Z │ reward.achieved │ a-reader-whose-id-is-lo… │ first-article (First article, a… │ achieve-${"b".repeat(43)} │`,
      bar("└", "┴", "┘"),
      "",
    ]);
  });

  it("--follow: one line per event, the same columns, no borders", () => {
    expect(tailLines([granted, achieved]).split("\n")).toEqual([
      `2026-12-01T10:00:01.234Z  reward.granted   u2                        article.completed +20 XP          grant-${"a".repeat(43)}`,
      `2026-12-01T10:00:01.456Z  reward.achieved  a-reader-whose-id-is-lo…  first-article (First article, a…  achieve-${"b".repeat(43)}`,
      "",
    ]);
    expect(tailLines([])).toBe("");
  });

  it("a user id of emoji is cut by its width, never in the middle of a character", () => {
    const row = tailTable.rows([{ ...granted, user: "😀".repeat(30) }]);
    expect(row).toContain(`│ ${"😀".repeat(11)}…  │`);
    expect(row).not.toContain("\ufffd");
  });
});
