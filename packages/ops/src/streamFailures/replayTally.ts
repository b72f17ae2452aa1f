import type { BatchReplay, BatchReplayOutcome } from "./batchReplay";

/** A replay's results counted, as its report and its exit code say them. */
export interface ReplayTally {
  batches: number;
  /** Records the function was handed, and of those done. */
  handed: number;
  done: number;
  replayed: number;
  discarded: number;
  wouldDiscard: number;
  /** Records that stay in the queue for a reason of their own (not a dry run's "would …"). */
  kept: number;
  /** Whether any record is kept for a reason a dry run reports too: not all found, a failed call. */
  refused: boolean;
}

/** Pure: a replay's results counted. */
export function replayTally(results: readonly BatchReplay[]): ReplayTally {
  const count = (...outcomes: BatchReplayOutcome[]) =>
    results.filter((r) => outcomes.includes(r.outcome)).length;
  return {
    batches: results.length,
    handed: results.reduce((n, r) => n + r.handed, 0),
    done: results.reduce((n, r) => n + r.done, 0),
    replayed: count("replayed"),
    discarded: count("discarded"),
    wouldDiscard: count("would discard"),
    kept: results.length - count("replayed", "would replay", "discarded", "would discard"),
    refused: count("incomplete", "failed") > 0,
  };
}

/**
 * Pure: whether a replay exits 1: a record kept (a dry run keeps every record, so only what it
 * refuses counts there), or kept records not made visible again at once.
 */
export const replayFailed = (tally: ReplayTally, dryRun: boolean, notReleased: boolean): boolean =>
  (!dryRun && tally.kept > 0) || tally.refused || notReleased;
