import { plural } from "@rewards/core";
import type { ProgressReport } from "@rewards/ops";
import { tableText } from "../runtime/text";

const COUNT_WORDS = {
  set: "raised to the history's",
  changed: "changed while read: run it again",
  incomplete: "not set: the history does not account for every award (past retention, or not written yet)",
  right: "",
} as const;

/** Readers' progress repaired (or, in a dry run, to repair): a row per reader changed, then the totals. */
export function describeProgress(report: ProgressReport): string {
  const would = report.dryRun ? "would be " : "";
  const rows = report.readers
    .filter(
      (r) =>
        r.daysKept + r.daysUnkept + r.achieved.length > 0 || r.counts !== "right" || r.failed || r.waiting,
    )
    .map((r) => ({
      user: r.userId,
      "kept days": r.daysKept + r.daysUnkept > 0 ? `+${r.daysKept} −${r.daysUnkept}` : "",
      achievements: r.waiting ? `waiting: ${r.waiting}` : r.achieved.join(", "),
      ...(report.counts
        ? { counts: report.dryRun && r.counts === "set" ? "would be set" : COUNT_WORDS[r.counts] }
        : {}),
      ...(r.failed ? { failed: r.failed } : {}),
    }));
  const { totals } = report;
  // A rebuild whose readers' progress was already right says only what it did to the history.
  if (rows.length === 0 && !report.counts) return "";
  const summary =
    `progress of ${plural(totals.readers, "reader")}: ${plural(totals.daysKept, "day")} ${would}kept, ` +
    `${plural(totals.daysUnkept, "day")} ${would}un-kept, ${plural(totals.achieved, "achievement")} ${would}earned` +
    (report.counts ? `, counts ${would}set for ${plural(totals.countsSet, "reader")}` : "") +
    (totals.waiting > 0
      ? `; ${plural(totals.waiting, "reader")}' achievements waiting for their history (run history rebuild, then this again)`
      : "") +
    (totals.failed > 0 ? `; ${plural(totals.failed, "reader")} failed` : "");
  return `${rows.length > 0 ? tableText(rows) : ""}${summary}\n`;
}
