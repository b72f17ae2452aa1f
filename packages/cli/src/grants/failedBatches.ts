import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { type AnnouncerDeps, isAwardCandidate, processBatch } from "@rewards/announcer";
import {
  type BatchReplay,
  type BatchReplayOutcome,
  replayStreamFailures,
  type StreamReplayTarget,
} from "../streamFailures/replayStreamFailures";

export type FailureOutcome =
  /** Every award of the batch published; the failure record deleted. */
  | "republished"
  /** --dry-run: what a replay would publish. */
  | "would republish"
  /** Some awards still not published: the record stays. */
  | "not all published"
  /** The stream gave back fewer (or more) of the batch's records than its batchSize: the record stays. */
  | "incomplete"
  /** The stream no longer holds the records: the record stays; republish from the table. */
  | "gone"
  | "unreadable"
  /** A call failed (reading the stream, deleting the record): the record stays; harmless to run again. */
  | "failed";

/** One of the announcer's given-up batches, replayed: in the announcer's words. */
export interface FailureReplay {
  messageId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Award records in the range (guard writes), and of those, published now. */
  awards: number;
  published: number;
  outcome: FailureOutcome;
  reason?: string;
}

export interface ReplayFailuresOptions {
  sqs: SQSClient;
  streams: DynamoDBStreamsClient;
  announcer: AnnouncerDeps;
  queueUrl: string;
  max: number;
  dryRun: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Told when kept records could not be made visible again at once (they are when their hold ends). */
  onNotReleased?: (problem: string) => void;
}

const OUTCOMES: Record<BatchReplayOutcome, FailureOutcome> = {
  replayed: "republished",
  "would replay": "would republish",
  "not all done": "not all published",
  incomplete: "incomplete",
  gone: "gone",
  unreadable: "unreadable",
  failed: "failed",
};

/**
 * The announcer, as a replay feeds it: its filter and its own processBatch. Its metrics are
 * not emitted: a replay's stdout is its report (and the function's metrics are Lambda's).
 */
export function announcerReplayTarget(deps: AnnouncerDeps): StreamReplayTarget {
  const quiet: AnnouncerDeps = { ...deps, emitMetrics: () => {} };
  return {
    filter: isAwardCandidate,
    run: async (records) => {
      const { counts, failures } = await processBatch(quiet, { Records: records });
      return { done: counts.announced, failures };
    },
    pastTheStream: "republish from the table",
  };
}

/** Pure: a replayed batch in the announcer's words. */
export function failureReplayOf({ handed, done, outcome, ...rest }: BatchReplay): FailureReplay {
  return { ...rest, awards: handed, published: done, outcome: OUTCOMES[outcome] };
}

/**
 * Replays given-up announcer batches (replayStreamFailures, feeding the announcer's own code):
 * each record is deleted only when the stream gave back exactly the batch's records and every
 * award among them was published. Harmless to repeat: each award keeps its id.
 */
export async function replayFailures(options: ReplayFailuresOptions): Promise<FailureReplay[]> {
  const { announcer, ...rest } = options;
  const results = await replayStreamFailures({ ...rest, target: announcerReplayTarget(announcer) });
  return results.map(failureReplayOf);
}
