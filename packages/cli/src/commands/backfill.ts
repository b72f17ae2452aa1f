import { type ScopeOptions, scopeOf } from "../options/userScope";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";
import { describeProgress } from "../text/describeProgress";

export default defineCommand<ScopeOptions & { dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "backfill",
    description:
      "start readers paid before counts, streaks and achievements right: their counts per type from the history (only when it accounts for every award, on the condition that nothing is paid meanwhile), their kept days, and the achievements their state earns; idempotent and safe beside live traffic (docs/operations.md, Counts, streaks and achievements)",
  },
  options: (command) =>
    command
      .option("--user <userId>", "this reader")
      .option("--all", "every reader with a profile (a scan)")
      .option("--dry-run", "write nothing; say what would be written")
      .option("--json", "print JSON: every reader's changes, and the totals"),
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    const { userId } = scopeOf(options, "readers");
    const { clientsFor, repairProgress } = await import("@rewards/ops");
    const report = await repairProgress(clientsFor(config).dynamo, {
      tableName: config.TABLE_NAME,
      userId,
      counts: true,
      dryRun: options.dryRun === true,
    });
    const again = report.readers.some((reader) => reader.counts === "changed");
    return {
      out: options.json ? jsonText(report) : describeProgress(report),
      ...(report.totals.failed > 0 || again ? { exitCode: 1 as const } : {}),
    };
  },
});
