import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { type AnnouncerDeps, isAwardCandidate, processBatch } from "@rewards/announcer";
import { type StreamBatchFailure, streamBatchFailureSchema } from "@rewards/core";
import { deleteHeld, holdMessages, release } from "../dlq/heldMessages";
import { readStreamRange } from "./streamRange";

export type HeldFailure = { message: Message } & (
  | { ok: true; failure: StreamBatchFailure }
  /** Not a stream failure record: `problem` says why. */
  | { ok: false; problem: string }
);

/** A failure record as one row: why it was given up and where in the stream it is. */
export function failureRow(held: HeldFailure) {
  if (!held.ok) return { messageId: held.message.MessageId, problem: held.problem };
  const { message, failure } = held;
  const batch = failure.DDBStreamBatchInfo;
  return {
    messageId: message.MessageId,
    condition: failure.requestContext.condition,
    invokes: failure.requestContext.approximateInvokeCount,
    shard: batch.shardId,
    from: batch.startSequenceNumber,
    to: batch.endSequenceNumber,
    records: batch.batchSize,
    firstArrival: batch.approximateArrivalOfFirstRecord,
    givenUpAt: failure.timestamp,
  };
}

/** Receives and holds up to `max` failure records, each parsed (see holdMessages). */
export async function holdFailures(sqs: SQSClient, queueUrl: string, max: number, holdSeconds: number) {
  const messages = await holdMessages(sqs, queueUrl, max, holdSeconds);
  return messages.map((message): HeldFailure => {
    try {
      const parsed = streamBatchFailureSchema.safeParse(JSON.parse(message.Body ?? ""));
      if (parsed.success) return { message, ok: true, failure: parsed.data };
      return {
        message,
        ok: false,
        problem: `not a stream failure record: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
      };
    } catch {
      return { message, ok: false, problem: "not a stream failure record: its body is not JSON" };
    }
  });
}

export type FailureOutcome =
  /** Every award of the batch published; the failure record deleted. */
  | "republished"
  /** --dry-run: what a replay would publish. */
  | "would republish"
  /** Some awards still not published: the record stays. */
  | "not all published"
  /** The stream no longer holds the records: the record stays; republish from the table. */
  | "gone"
  | "unreadable";

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
}

/**
 * Replays given-up announcer batches: reads each one's records back from the stream, runs
 * the announcer's own code on the awards among them, and deletes the failure record only
 * when every award was published. Harmless to repeat: each award keeps its id.
 */
export async function replayFailures(options: ReplayFailuresOptions): Promise<FailureReplay[]> {
  const { sqs, queueUrl } = options;
  const held = await holdFailures(sqs, queueUrl, options.max, 300);
  const results: FailureReplay[] = [];
  const keep: Message[] = [];
  try {
    for (const [index, item] of held.entries()) {
      options.onProgress?.(index, held.length);
      const base = { messageId: item.message.MessageId, awards: 0, published: 0 };
      if (!item.ok) {
        results.push({ ...base, outcome: "unreadable", ...(item.problem ? { reason: item.problem } : {}) });
        keep.push(item.message);
        continue;
      }
      const batch = item.failure.DDBStreamBatchInfo;
      const place = { ...base, from: batch.startSequenceNumber, to: batch.endSequenceNumber };
      const range = await readStreamRange(options.streams, batch);
      if (!range.ok) {
        results.push({ ...place, outcome: "gone", reason: range.reason });
        keep.push(item.message);
        continue;
      }
      const awards = range.records.filter(isAwardCandidate);
      if (options.dryRun) {
        results.push({ ...place, awards: awards.length, outcome: "would republish" });
        keep.push(item.message);
        continue;
      }
      const result = await processBatch(options.announcer, { Records: awards });
      if (result.failures.length === 0) {
        await deleteHeld(sqs, queueUrl, item.message);
        results.push({
          ...place,
          awards: awards.length,
          published: result.counts.announced,
          outcome: "republished",
        });
      } else {
        results.push({
          ...place,
          awards: awards.length,
          published: result.counts.announced,
          outcome: "not all published",
          reason: result.failures[0]?.reason ?? "",
        });
        keep.push(item.message);
      }
    }
    options.onProgress?.(held.length, held.length);
  } finally {
    // What stays is visible again at once, not after the hold.
    const unfinished = held.slice(results.length).map((item) => item.message);
    await release(sqs, queueUrl, [...keep, ...unfinished]);
  }
  return results;
}
