import { userIdSchema } from "@rewards/core";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { describeRebuild } from "../../text/describeRebuild";

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

export default defineCommand<RebuildCliOptions>()({
  meta: {
    name: "rebuild",
    description:
      "rewrite users' history items from the guards still on TABLE_NAME (a scan), as the history's writer derives them: a missing or wrong item is written, one already right is not; for what the stream no longer holds (docs/operations.md, Rebuilding the history)",
  },
  options: (command) =>
    command
      .option("--user <userId>", "this user's history")
      .option("--all", "every user's history")
      .option("--dry-run", "write nothing; say what would be written")
      .option("--json", "print JSON: every user's intent keys written, corrected, kept revoked; the totals"),
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    const { userId } = scopeOf(options);
    const [{ readHistoryConfig }, { clientsFor, rebuildHistory }] = await Promise.all([
      import("@rewards/history"),
      import("@rewards/ops"),
    ]);
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
    return {
      out: options.json ? jsonText(report) : describeRebuild(report),
      ...(report.totals.failed > 0 || report.totals.unreadable > 0 ? { exitCode: 1 as const } : {}),
    };
  },
});
