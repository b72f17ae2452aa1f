import { plural } from "@rewards/core";
import type { WeeksReport } from "@rewards/ops";
import { tableText } from "../runtime/text";

/** Readers' weeks on the board repaired (or, in a dry run, to repair): a row per week changed, then the totals. */
export function describeWeeks(report: WeeksReport): string {
  const would = report.dryRun ? "would be " : "";
  const rows = report.readers.flatMap((reader) => [
    ...reader.changed.map((change) => ({
      user: reader.userId,
      week: change.week,
      xp: `${change.from} → ${change.to}`,
    })),
    ...(reader.failed ? [{ user: reader.userId, week: "", xp: `failed: ${reader.failed}` }] : []),
  ]);
  const { totals } = report;
  const notPreviewed =
    totals.skipped > 0
      ? `board weeks of ${plural(totals.skipped, "reader")} whose history would change: not previewed (run it without --dry-run)\n`
      : "";
  // Weeks already right say nothing: a rebuild then says only what it did to the history.
  if (rows.length === 0) return notPreviewed;
  const summary =
    `board weeks of ${plural(totals.readers, "reader")}: ${plural(totals.weeksChanged, "week")} ${would}set from the history` +
    (totals.failed > 0 ? `; ${plural(totals.failed, "reader")} failed` : "");
  return `${tableText(rows)}${summary}\n${notPreviewed}`;
}
