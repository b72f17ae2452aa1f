import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type HistoryItem, userOfKey } from "@rewards/core";
import { repairWeeks, type WeeksReport } from "../board/repairWeeks";
import { type RebuildReport, rebuildHistory } from "../history/rebuildHistory";
import { type ProgressReport, repairProgress } from "../progress/repairProgress";
import { readReader, readTable } from "./tableSnapshot";

/** The passes of a repair, in order; each reports its own progress. */
export type RepairPhase = "reading the table" | "history" | "progress" | "weeks";

export interface RepairReadersOptions {
  tableName: string;
  /** One reader (their partition and their guards); undefined: every reader (the whole table, read once). */
  userId?: string | undefined;
  dryRun: boolean;
  /** `history rebuild`: the history's items rewritten from the guards first (REWARDS_HISTORY_DAYS). */
  rebuild?: { historyDays: number } | undefined;
  /** `backfill`: the counts per type too. */
  counts: boolean;
  /** REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS. */
  shards: number;
  keepWeeks: number;
  /** Told as each pass goes: done and total (0 while not known). */
  onProgress?: (phase: RepairPhase, done: number, total: number) => void;
  /** Ctrl-C: each pass stops where it is, and the passes after it do not start. */
  signal?: AbortSignal | undefined;
  /** Epoch ms, for retention and kept weeks. Date.now by default. */
  now?: () => number;
}

export interface ReadersRepair {
  /** Items the pass read, and whether it read the whole table (or the whole reader). */
  read: { items: number; complete: boolean };
  history?: RebuildReport;
  progress?: ProgressReport;
  weeks?: WeeksReport;
  /** Stopped part-way (Ctrl-C): what the reports say was done; a second run does the rest, and nothing twice. */
  interrupted: boolean;
}

/**
 * `history rebuild` and `backfill` (docs/operations.md, "Repair at scale"): the table read once
 * (a parallel scan; for one reader, their partition and their guards), then each reader decided
 * from what it read — their history from their guards, then their kept days, counts and
 * achievements, then their weeks — and each change written under the condition that keeps it
 * right beside live traffic. A reader already right costs the read alone, so a second run writes
 * nothing, and a run cut short is finished by running it again.
 */
export async function repairReaders(
  dynamo: DynamoDBDocumentClient,
  options: RepairReadersOptions,
): Promise<ReadersRepair> {
  const { tableName, userId, dryRun, signal } = options;
  const progressOf = (phase: RepairPhase) =>
    options.onProgress && ((done: number, total: number) => options.onProgress?.(phase, done, total));
  const snapshot =
    userId === undefined
      ? await readTable(dynamo, tableName, { onProgress: progressOf("reading the table"), signal })
      : await readReader(dynamo, tableName, userId);
  const result: ReadersRepair = {
    read: { items: snapshot.items, complete: snapshot.complete },
    interrupted: false,
  };
  if (!snapshot.complete) return { ...result, interrupted: true };

  // What the rebuild wrote (or would write): newer than the snapshot, read in place of its items.
  const pending = new Map<string, HistoryItem[]>();
  if (options.rebuild) {
    result.history = await rebuildHistory(dynamo, {
      tableName,
      historyDays: options.rebuild.historyDays,
      userId,
      dryRun,
      snapshot,
      signal,
      onProgress: progressOf("history"),
      ...(options.now ? { now: options.now } : {}),
      onItem: (item) => {
        const owner = userOfKey(item.pk) ?? "";
        pending.set(owner, [...(pending.get(owner) ?? []), item]);
      },
    });
    if (result.history.interrupted) return { ...result, interrupted: true };
  }
  result.progress = await repairProgress(dynamo, {
    tableName,
    userId,
    counts: options.counts,
    dryRun,
    pending,
    snapshot,
    signal,
    onProgress: progressOf("progress"),
  });
  if (result.progress.interrupted) return { ...result, interrupted: true };
  result.weeks = await repairWeeks(dynamo, {
    tableName,
    userId,
    dryRun,
    shards: options.shards,
    keepWeeks: options.keepWeeks,
    snapshot,
    pending,
    signal,
    onProgress: progressOf("weeks"),
    ...(options.now ? { now: options.now } : {}),
  });
  return { ...result, interrupted: result.weeks.interrupted };
}
