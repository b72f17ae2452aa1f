import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { isAwardCandidate } from "@rewards/announcer";
import { type HistoryDeps, processBatch } from "@rewards/history";
import {
  type BatchReplay,
  type BatchReplayOutcome,
  replayStreamFailures,
  type StreamReplayTarget,
} from "../streamFailures/replayStreamFailures";

export type HistoryReplayOutcome =
  /** Every award of the batch has its history item as its guard says; the failure record deleted. */
  | "written"
  /** --dry-run: how many awards a replay would write. */
  | "would write"
  /** Some items still not written (the table refuses, throttles): the record stays. */
  | "not all written"
  | "incomplete"
  | "gone"
  | "unreadable"
  | "failed";

/** One of the history writer's given-up batches, replayed: in the history's words. */
export interface HistoryReplay {
  messageId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Guard writes in the range (awards and revocations): what the writer is handed. */
  awards: number;
  /** Of those, whose history item is now as the guard's image says (put, or left revoked). */
  written: number;
  outcome: HistoryReplayOutcome;
  reason?: string;
}

const OUTCOMES: Record<BatchReplayOutcome, HistoryReplayOutcome> = {
  replayed: "written",
  "would replay": "would write",
  "not all done": "not all written",
  incomplete: "incomplete",
  gone: "gone",
  unreadable: "unreadable",
  failed: "failed",
};

/**
 * The history's writer, as a replay feeds it: the mapping's filter (the announcer's, guard
 * INSERT/MODIFY) and its own processBatch, so a replayed record writes the very item the
 * function would have (docs/history.md: exactly once by construction). Its metrics are not
 * emitted: a replay's stdout is its report.
 */
export function historyReplayTarget(deps: HistoryDeps): StreamReplayTarget {
  const quiet: HistoryDeps = { ...deps, emitMetrics: () => {} };
  return {
    filter: isAwardCandidate,
    run: async (records) => {
      const { counts, failures } = await processBatch(quiet, { Records: records });
      return { done: counts.written + counts.skipped, failures };
    },
    pastTheStream: "rebuild the users' history from the guards (`rewards history rebuild`)",
  };
}

/** Pure: a replayed batch in the history's words. */
export function historyReplayOf({ handed, done, outcome, ...rest }: BatchReplay): HistoryReplay {
  return { ...rest, awards: handed, written: done, outcome: OUTCOMES[outcome] };
}

export interface ReplayHistoryFailuresOptions {
  sqs: SQSClient;
  streams: DynamoDBStreamsClient;
  history: HistoryDeps;
  /** HISTORY_FAILURE_QUEUE_URL. */
  queueUrl: string;
  max: number;
  dryRun: boolean;
  onProgress?: ((done: number, total: number) => void) | undefined;
  onNotReleased?: ((problem: string) => void) | undefined;
}

/**
 * Replays the history writer's given-up batches (replayStreamFailures, feeding the writer's
 * own code): each record is deleted only when the stream gave back exactly the batch's
 * records and every one of their items was written. Harmless to repeat: a record always
 * writes the same item, and an older image never undoes a revocation.
 */
export async function replayHistoryFailures(options: ReplayHistoryFailuresOptions): Promise<HistoryReplay[]> {
  const { history, ...rest } = options;
  const results = await replayStreamFailures({ ...rest, target: historyReplayTarget(history) });
  return results.map(historyReplayOf);
}
