import { type HistoryItem, userOfKey } from "@rewards/core";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import { type ScopeOptions, scopeOf } from "../../options/userScope";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { describeProgress } from "../../text/describeProgress";
import { describeRebuild } from "../../text/describeRebuild";
import { describeWeeks } from "../../text/describeWeeks";

export default defineCommand<ScopeOptions & { dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "rebuild",
    description:
      "rewrite users' history items from the guards still on TABLE_NAME (a scan), as the history's writer derives them: a missing or wrong item is written, one already right is not; then their kept days, achievements and weeks on the board from the history; for what the stream no longer holds (docs/operations.md, Rebuilding the history)",
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
    const [{ readHistoryConfig }, { clientsFor, rebuildHistory, repairProgress, repairWeeks }] =
      await Promise.all([import("@rewards/history"), import("@rewards/ops")]);
    // The writer's own reading of REWARDS_HISTORY_DAYS (and its default): the same expiresAt.
    const { REWARDS_HISTORY_DAYS: historyDays } = readHistoryConfig({
      TABLE_NAME: config.TABLE_NAME,
      REWARDS_HISTORY_DAYS: config.REWARDS_HISTORY_DAYS,
    });
    const { dynamo } = clientsFor(config);
    const dryRun = options.dryRun === true;
    // A dry run's progress repair reads the history as the rebuild would leave it.
    const pending = new Map<string, HistoryItem[]>();
    const history = await rebuildHistory(dynamo, {
      tableName: config.TABLE_NAME,
      historyDays,
      userId,
      dryRun,
      ...(dryRun
        ? {
            onItem: (item: HistoryItem) => {
              const userId = userOfKey(item.pk) ?? "";
              pending.set(userId, [...(pending.get(userId) ?? []), item]);
            },
          }
        : {}),
    });
    // Then what the stream derives from the history: kept days and achievements (never counts or XP).
    const progress = await repairProgress(dynamo, {
      tableName: config.TABLE_NAME,
      userId,
      counts: false,
      dryRun,
      pending,
    });
    // And the board's weeks, from the history (docs/board.md#repair).
    const weeks = await repairWeeks(dynamo, {
      tableName: config.TABLE_NAME,
      userId,
      dryRun,
      shards: config.REWARDS_BOARD_SHARDS ?? DEFAULT_BOARD_SHARDS,
      keepWeeks: config.REWARDS_BOARD_WEEKS ?? DEFAULT_BOARD_WEEKS,
      ...(dryRun
        ? {
            skip: new Set(
              history.users.filter((u) => u.written.length + u.corrected.length > 0).map((u) => u.userId),
            ),
          }
        : {}),
    });
    return {
      out: options.json
        ? jsonText({ ...history, progress, weeks })
        : `${describeRebuild(history)}${describeProgress(progress)}${describeWeeks(weeks)}`,
      ...(history.totals.failed > 0 ||
      history.totals.unreadable > 0 ||
      progress.totals.failed > 0 ||
      weeks.totals.failed > 0
        ? { exitCode: 1 as const }
        : {}),
    };
  },
});
