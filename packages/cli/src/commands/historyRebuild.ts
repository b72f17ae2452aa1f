import { userIdSchema } from "@rewards/core";
import { readHistoryConfig } from "@rewards/history";
import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { describeRebuild } from "../history/describeRebuild";
import { rebuildHistory } from "../history/rebuildHistory";
import { printJson } from "../output";

interface RebuildCliOptions {
  user?: string;
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** Whose history: one user's, or every user's; anything else is a usage error. */
function scopeOf(options: RebuildCliOptions): { userId: string | undefined } {
  if (options.user !== undefined && options.all === true)
    throw new CliError("--user and --all: one or the other", 2);
  if (options.all === true) return { userId: undefined };
  if (options.user === undefined) throw new CliError("whose history: --user <userId>, or --all", 2);
  const user = userIdSchema.safeParse(options.user);
  if (!user.success)
    throw new CliError(
      `--user: ${user.error.issues[0]?.message ?? "not a user id"}: ${JSON.stringify(options.user)}`,
      2,
    );
  return { userId: user.data };
}

/** `rewards history rebuild`: adds the `rebuild` subcommand to the given `history` command. */
export function registerHistoryRebuild(history: Command): void {
  history
    .command("rebuild")
    .description(
      "rewrite users' history items from the guards still on TABLE_NAME (a scan), as the history's writer derives them: a missing or wrong item is written, one already right is not; for what the stream no longer holds (docs/operations.md, Rebuilding the history)",
    )
    .option("--user <userId>", "this user's history")
    .option("--all", "every user's history")
    .option("--dry-run", "write nothing; say what would be written")
    .option("--json", "print JSON: every user's intent keys written, corrected, kept revoked; the totals")
    .action(async (options: RebuildCliOptions) => {
      const { userId } = scopeOf(options);
      const config = commandConfig("TABLE_NAME");
      // The writer's own reading of REWARDS_HISTORY_DAYS (and its default): the same expiresAt.
      const { REWARDS_HISTORY_DAYS: historyDays } = readHistoryConfig({
        TABLE_NAME: config.TABLE_NAME,
        REWARDS_HISTORY_DAYS: config.REWARDS_HISTORY_DAYS,
      });
      const report = await rebuildHistory(clientsFor(config).dynamo, {
        tableName: config.TABLE_NAME,
        historyDays,
        userId,
        dryRun: options.dryRun === true,
      });
      if (options.json) printJson(report);
      else process.stdout.write(describeRebuild(report));
      if (report.totals.failed > 0 || report.totals.unreadable > 0) process.exitCode = 1;
    });
}
