import type { ToolConfig } from "@rewards/core/deploy";
import { DEFAULT_BOARD_SHARDS, DEFAULT_BOARD_WEEKS } from "@rewards/core/deploy";
import type { ReadersRepair, RepairPhase } from "@rewards/ops";
import type { CommandResult } from "../runtime/defineCommand";
import type { Io } from "../runtime/io";
import { jsonText } from "../runtime/text";
import { describeRepair } from "../text/describeRepair";

/**
 * `history rebuild` and `backfill` alike: the repair run with a progress bar per pass on a
 * terminal, and on Ctrl-C stopped where it is, with what it did said (docs/operations.md,
 * "Repair at scale").
 */
export async function runReaderRepair(
  io: Io,
  config: ToolConfig<"TABLE_NAME">,
  options: { userId: string | undefined; dryRun: boolean; json: boolean; rebuild?: { historyDays: number } },
): Promise<CommandResult> {
  const { clientsFor, repairReaders } = await import("@rewards/ops");
  const { dynamo } = clientsFor(config);
  const stop = new AbortController();
  void io.untilSignal(() => {
    io.err("stopping: finishing the writes in flight (Ctrl-C again to quit at once)\n");
    stop.abort();
  });
  let phase: { name: RepairPhase; progress: ReturnType<Io["progress"]> } | undefined;
  const report: ReadersRepair = await repairReaders(dynamo, {
    tableName: config.TABLE_NAME,
    userId: options.userId,
    dryRun: options.dryRun,
    counts: options.rebuild === undefined,
    ...(options.rebuild ? { rebuild: options.rebuild } : {}),
    shards: config.REWARDS_BOARD_SHARDS ?? DEFAULT_BOARD_SHARDS,
    keepWeeks: config.REWARDS_BOARD_WEEKS ?? DEFAULT_BOARD_WEEKS,
    signal: stop.signal,
    onProgress: (name, done, total) => {
      if (phase?.name !== name) {
        phase?.progress.stop();
        phase = { name, progress: io.progress(options.json, name) };
      }
      phase.progress.onProgress?.(done, total);
    },
  });
  phase?.progress.stop();
  const failed =
    (report.history?.totals.failed ?? 0) +
    (report.history?.totals.unreadable ?? 0) +
    (report.progress?.totals.failed ?? 0) +
    (report.weeks?.totals.failed ?? 0);
  const again = report.progress?.readers.some((reader) => reader.counts === "changed") ?? false;
  return {
    out: options.json ? jsonText(jsonOf(report)) : describeRepair(report),
    ...(failed > 0 || again || report.interrupted ? { exitCode: 1 as const } : {}),
  };
}

/**
 * The JSON both commands printed before they shared a run: `history rebuild` the history's report
 * with `progress` and `weeks` in it, `backfill` the progress report with `weeks`; now with what was
 * `read` and whether it was `interrupted`.
 */
function jsonOf(report: ReadersRepair): Record<string, unknown> {
  const { history, progress, weeks, read, interrupted } = report;
  const extra = { read, interrupted };
  return history ? { ...history, progress, weeks, ...extra } : { ...progress, weeks, ...extra };
}
