import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import { type ScopeOptions, scopeOf } from "../options/userScope";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";
import { describeProgress } from "../text/describeProgress";
import { describeWeeks } from "../text/describeWeeks";

export default defineCommand<ScopeOptions & { dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "backfill",
    description:
      "start readers paid before counts, streaks and achievements right: their counts per type from the history (only when it accounts for every award, on the condition that nothing is paid meanwhile), their kept days, the achievements their state earns, and their weeks on the board; idempotent and safe beside live traffic (docs/operations.md, Counts, streaks and achievements)",
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
    const { clientsFor, repairProgress, repairWeeks } = await import("@rewards/ops");
    const { dynamo } = clientsFor(config);
    const dryRun = options.dryRun === true;
    const report = await repairProgress(dynamo, {
      tableName: config.TABLE_NAME,
      userId,
      counts: true,
      dryRun,
    });
    // Readers paid before the board: their kept weeks from the history (docs/board.md#repair).
    const weeks = await repairWeeks(dynamo, {
      tableName: config.TABLE_NAME,
      userId,
      dryRun,
      shards: config.REWARDS_BOARD_SHARDS ?? DEFAULT_BOARD_SHARDS,
      keepWeeks: config.REWARDS_BOARD_WEEKS ?? DEFAULT_BOARD_WEEKS,
    });
    const again = report.readers.some((reader) => reader.counts === "changed");
    return {
      out: options.json
        ? jsonText({ ...report, weeks })
        : `${describeProgress(report)}${describeWeeks(weeks)}`,
      ...(report.totals.failed > 0 || weeks.totals.failed > 0 || again ? { exitCode: 1 as const } : {}),
    };
  },
});
