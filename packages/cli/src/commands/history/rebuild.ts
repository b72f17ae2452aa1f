import { type ScopeOptions, scopeOf } from "../../options/userScope";
import { defineCommand } from "../../runtime/defineCommand";
import { runReaderRepair } from "../readerRepairRun";
export default defineCommand<ScopeOptions & { dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "rebuild",
    description:
      "rewrite users' history items from the guards still on TABLE_NAME, as the history's writer derives them: a missing or wrong item is written, one already right is not; then their kept days, achievements and weeks on the board from the history; for what the stream no longer holds. --all reads the table once (a parallel scan) with a progress bar; Ctrl-C stops it and says what was done; run it again to finish (docs/operations.md, Repair at scale)",
  },
  options: (command) =>
    command
      .option("--user <userId>", "this user's history")
      .option("--all", "every user's history")
      .option("--dry-run", "write nothing; say what would be written")
      .option("--json", "print JSON: every user's intent keys written, corrected, kept revoked; the totals"),
  needs: ["TABLE_NAME"],
  async run({ options, config, io }) {
    const { userId } = scopeOf(options);
    const { readHistoryConfig } = await import("@rewards/history");
    // The writer's own reading of REWARDS_HISTORY_DAYS (and its default): the same expiresAt.
    const { REWARDS_HISTORY_DAYS: historyDays } = readHistoryConfig({
      TABLE_NAME: config.TABLE_NAME,
      REWARDS_HISTORY_DAYS: config.REWARDS_HISTORY_DAYS,
    });
    return runReaderRepair(io, config, {
      userId,
      dryRun: options.dryRun === true,
      json: options.json === true,
      rebuild: { historyDays },
    });
  },
});
