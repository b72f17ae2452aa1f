import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { type AnnouncerDeps, isAwardCandidate, processBatch } from "@rewards/announcer";
import { type StreamBatchFailure, streamBatchFailureSchema } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { deleteHeld, holdMessages, releaseReported } from "../dlq/heldMessages";
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
  /** The stream gave back fewer (or more) of the batch's records than its batchSize: the record stays. */
  | "incomplete"
  /** The stream no longer holds the records: the record stays; republish from the table. */
  | "gone"
  | "unreadable"
  /** A call failed (reading the stream, deleting the record): the record stays; harmless to run again. */
  | "failed";

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

/**
 * Pure: why the records read back are not the given-up batch, or undefined when they are.
 * `batchSize` counts the batch's records, its range from the first sequence number to the
 * last, and is compared with every record read in that range.
 */
export function missingRecords(
  batch: StreamBatchFailure["DDBStreamBatchInfo"],
  found: number,
  reachedEnd: boolean,
): string | undefined {
  if (found === batch.batchSize) return undefined;
  const where = reachedEnd
    ? `between sequence numbers ${batch.startSequenceNumber} and ${batch.endSequenceNumber}`
    : `from sequence number ${batch.startSequenceNumber}; the stream ended before ${batch.endSequenceNumber}`;
  return `found ${found} of the batch's ${batch.batchSize} records ${where}: ${
    found < batch.batchSize
      ? `${batch.batchSize - found} missing`
      : `${found - batch.batchSize} more than it held`
  } (kept; run again later, or republish from the table)`;
}

/** One failure record replayed: never throws (a failed call is its outcome). */
async function replayOne(
  options: ReplayFailuresOptions,
  item: HeldFailure & { ok: true },
): Promise<{ result: FailureReplay; done: boolean }> {
  const batch = item.failure.DDBStreamBatchInfo;
  const place = {
    messageId: item.message.MessageId,
    awards: 0,
    published: 0,
    from: batch.startSequenceNumber,
    to: batch.endSequenceNumber,
  };
  let range: Awaited<ReturnType<typeof readStreamRange>>;
  try {
    range = await readStreamRange(options.streams, batch);
  } catch (error) {
    return {
      result: { ...place, outcome: "failed", reason: `reading the stream: ${describeError(error)}` },
      done: false,
    };
  }
  if (!range.ok) return { result: { ...place, outcome: "gone", reason: range.reason }, done: false };
  const awards = range.records.filter(isAwardCandidate);
  const missing = missingRecords(batch, range.records.length, range.reachedEnd);
  if (missing !== undefined)
    return {
      result: { ...place, awards: awards.length, outcome: "incomplete", reason: missing },
      done: false,
    };
  if (options.dryRun)
    return { result: { ...place, awards: awards.length, outcome: "would republish" }, done: false };
  const published = await processBatch(options.announcer, { Records: awards });
  const counted = { ...place, awards: awards.length, published: published.counts.announced };
  if (published.failures.length > 0)
    return {
      result: { ...counted, outcome: "not all published", reason: published.failures[0]?.reason ?? "" },
      done: false,
    };
  try {
    await deleteHeld(options.sqs, options.queueUrl, item.message);
  } catch (error) {
    return {
      result: {
        ...counted,
        outcome: "failed",
        reason: `published, but the record was not deleted (a later replay publishes the same events again): ${describeError(error)}`,
      },
      done: false,
    };
  }
  return { result: { ...counted, outcome: "republished" }, done: true };
}

/**
 * Replays given-up announcer batches: reads each one's records back from the stream, runs
 * the announcer's own code on the awards among them, and deletes the failure record only
 * when the stream gave back exactly the batch's records and every award was published.
 * Harmless to repeat: each award keeps its id. Every record not deleted is made visible
 * again at once; a failed call is a record's outcome, so the report always comes back.
 */
export async function replayFailures(options: ReplayFailuresOptions): Promise<FailureReplay[]> {
  const { sqs, queueUrl } = options;
  const held = await holdFailures(sqs, queueUrl, options.max, 300);
  const results: FailureReplay[] = [];
  const keep: Message[] = [];
  for (const [index, item] of held.entries()) {
    options.onProgress?.(index, held.length);
    if (!item.ok) {
      results.push({
        messageId: item.message.MessageId,
        awards: 0,
        published: 0,
        outcome: "unreadable",
        reason: item.problem,
      });
      keep.push(item.message);
      continue;
    }
    const { result, done } = await replayOne(options, item);
    results.push(result);
    if (!done) keep.push(item.message);
  }
  options.onProgress?.(held.length, held.length);
  // What stays is visible again at once, not after the hold.
  const notReleased = await releaseReported(sqs, queueUrl, keep);
  if (notReleased !== undefined) options.onNotReleased?.(notReleased);
  return results;
}
