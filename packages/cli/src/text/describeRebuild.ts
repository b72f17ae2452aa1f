import { plural } from "@rewards/core";
import type { RebuildReport, UserRebuild } from "@rewards/ops";
import { tableText } from "../runtime/text";

/** One row per item the rebuild touched (or would touch), or kept revoked, or could not write. */
function changeRows(user: UserRebuild, dryRun: boolean) {
  return [
    ...user.written.map((intentKey) => ({
      change: dryRun ? "would write" : "written",
      intentKey,
      detail: "",
    })),
    ...user.corrected.map(({ intentKey, fields }) => ({
      change: dryRun ? "would correct" : "corrected",
      intentKey,
      detail: `differed: ${fields.join(", ")}`,
    })),
    ...user.keptRevoked.map((intentKey) => ({
      change: "kept revoked",
      intentKey,
      detail: "revoked in the history, not on its guard",
    })),
    ...user.skipped.map((intentKey) => ({
      change: "skipped",
      intentKey,
      detail: "revoked while the rebuild ran: the writer's item stands",
    })),
    ...user.failed.map(({ intentKey, reason }) => ({ change: "failed", intentKey, detail: reason })),
  ].map((row) => ({ user: user.userId, ...row }));
}

/**
 * The rebuild for people: what it covered, a row per item it changed (or would), and the
 * totals. Users whose every item was right are counted, not listed (`--json` lists them).
 */
export function describeRebuild(report: RebuildReport): string {
  const { totals } = report;
  const days = report.historyDays === 0 ? "kept forever" : `${report.historyDays} days`;
  const lines = [
    `${report.dryRun ? "dry run: " : ""}${report.userId === null ? "every user" : `user ${report.userId}`}: ${plural(totals.guards, "guard")} on the table, ${plural(totals.users, "user")}; history retention ${days}`,
  ];
  let text = "";
  const rows = report.users.flatMap((user) => changeRows(user, report.dryRun));
  if (rows.length > 0) text += tableText(rows, ["user", "change", "intentKey", "detail"]);
  for (const { pk, reason } of report.unreadable) lines.push(`unreadable guard ${pk}: ${reason}`);
  const changed = totals.written + totals.corrected;
  const counts = `${totals.written} missing, ${totals.corrected} corrected; ${totals.unchanged} unchanged, ${totals.expired} past their retention`;
  lines.push(
    report.dryRun
      ? `${plural(changed, "item")} would be written (${counts}); nothing written`
      : `${plural(changed, "item")} written (${counts})${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ""}${totals.failed > 0 ? `, ${totals.failed} failed` : ""}`,
  );
  if (totals.keptRevoked > 0)
    lines.push(
      `${plural(totals.keptRevoked, "item")} revoked in the history but not on its guard: kept revoked (docs/operations.md, "Rebuilding the history")`,
    );
  return `${lines[0]}\n${text}${lines.slice(1).join("\n")}\n`;
}
