import { countVerdicts, plural, type RevokeCounts, type RevokeResult } from "@rewards/core";

export interface RevokeReport {
  dryRun: boolean;
  reason: string;
  counts: RevokeCounts;
  /** XP taken back (or, in a dry run, that would be), and from how many users. */
  xp: number;
  users: number;
  results: RevokeResult[];
}

export function revokeReport(results: RevokeResult[], dryRun: boolean, reason: string): RevokeReport {
  const taken = results.filter((r) => r.verdict === (dryRun ? "would_revoke" : "revoked"));
  return {
    dryRun,
    reason,
    counts: countVerdicts(results),
    xp: taken.reduce((sum, r) => sum + (r.xp ?? 0), 0),
    users: new Set(taken.map((r) => r.userId)).size,
    results,
  };
}

function describeResult(r: RevokeResult): string {
  const key = JSON.stringify(r.intentKey);
  switch (r.verdict) {
    case "revoked":
      return `revoked ${key}: user ${r.userId} -${r.xp} XP`;
    case "would_revoke":
      return `would revoke ${key}: user ${r.userId} -${r.xp} XP`;
    case "already_revoked":
      return `already_revoked ${key}: user ${r.userId} ${r.xp} XP, revoked at ${r.revokedAt}${r.revokedReason ? ` (${JSON.stringify(r.revokedReason)})` : ""}`;
    case "invalid":
      return `invalid: ${r.reason}`;
    default:
      return `${r.verdict} ${key}: ${r.reason}`;
  }
}

/** One line per input line, then the counts (the verdict names as in --json). */
export function describeRevocations(report: RevokeReport): string {
  const lines = report.results.map((r) => `line ${r.line}: ${describeResult(r)}`);
  const { counts } = report;
  const first = report.dryRun
    ? `dry run: ${counts.would_revoke} would_revoke (${report.xp} XP from ${plural(report.users, "user")})`
    : `${counts.revoked} revoked (${report.xp} XP from ${plural(report.users, "user")})`;
  lines.push(
    `${first}, ${counts.already_revoked} already_revoked, ${counts.not_found} not_found, ${counts.invalid} invalid, ${counts.failed} failed${counts.copy > 0 ? `, ${counts.copy} ${counts.copy === 1 ? "copy" : "copies"}` : ""}`,
  );
  if (report.dryRun && counts.would_revoke > 0) lines.push("nothing changed: add --yes to revoke");
  return lines.join("\n");
}
