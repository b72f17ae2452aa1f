import type { ScopeOptions } from "../options/userScope";
import { defineCommand } from "../runtime/defineCommand";
export default defineCommand<ScopeOptions & { achievements?: boolean; dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "backfill",
    description:
      "start readers paid before counts, streaks and achievements right: their counts per type from the history (only when it accounts for every award, on the condition that nothing is paid meanwhile), their kept days, the achievements their state earns, and their weeks on the board; idempotent and safe beside live traffic; --all reads the table once (a parallel scan) with a progress bar; Ctrl-C stops it and says what was done; run it again to finish (docs/operations.md, Counts, streaks and achievements)",
  },
  options: (command) =>
    command
      .option("--user <userId>", "this reader")
      .option("--all", "every reader with a profile (the table read once)")
      .option(
        "--achievements",
        "every reader (as --all, or --user's), after a rules version added achievements: each reader who already met one earns it at the version's publish (docs/rules.md#new-and-retired-achievements)",
      )
      .option("--dry-run", "write nothing; say what would be written")
      .option("--json", "print JSON: every reader's changes, and the totals"),
  needs: ["TABLE_NAME"],
  async run({ options, config, io }) {
    const [{ scopeOf }, { runReaderRepair }] = await Promise.all([
      import("../options/userScope"),
      import("./readerRepairRun"),
    ]);
    // --achievements is the same pass: it decides every achievement of the version in force.
    const scope =
      options.achievements === true && options.user === undefined ? { ...options, all: true } : options;
    const { userId } = scopeOf(scope, "readers");
    return runReaderRepair(io, config, {
      userId,
      dryRun: options.dryRun === true,
      json: options.json === true,
    });
  },
});
