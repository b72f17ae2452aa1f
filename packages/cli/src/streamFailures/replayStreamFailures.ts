import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import type { StreamBatchFailure } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";
import { deleteHeld, releaseReported } from "../dlq/heldMessages";
import { type HeldFailure, holdFailures } from "./heldFailures";
import { readStreamRange } from "./streamRange";

/** Which function a replay feeds: its mapping's filter and its own code. */
export interface StreamReplayTarget {
  /** The mapping's filter: the records of a range the function is handed. */
  filter: (record: DynamoDBRecord) => boolean;
  /** The function's own code over the records it is handed: how many it did, and why not the others. */
  run: (records: DynamoDBRecord[]) => Promise<{ done: number; failures: readonly { reason: string }[] }>;
  /** What to do once the stream no longer holds a batch (e.g. "republish from the table"). */
  pastTheStream: string;
}

export type BatchReplayOutcome =
  /** Every record the function is handed done; the failure record deleted. */
  | "replayed"
  /** --dry-run: what a replay would hand the function. */
  | "would replay"
  /** The function did not do all of them: the record stays. */
  | "not all done"
  /** The stream gave back fewer (or more) of the batch's records than its batchSize: the record stays. */
  | "incomplete"
  /** The stream no longer holds the records: the record stays. */
  | "gone"
  /** Not a failure record: it stays. */
  | "unreadable"
  /** A call failed (reading the stream, the function's code, deleting the record): the record stays; harmless to run again. */
  | "failed";

export interface BatchReplay {
  messageId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Records of the range the mapping's filter passes: what the function is handed. */
  handed: number;
  /** Of those, done by the function now. */
  done: number;
  outcome: BatchReplayOutcome;
  reason?: string;
}

export interface ReplayStreamFailuresOptions {
  sqs: SQSClient;
  streams: DynamoDBStreamsClient;
  target: StreamReplayTarget;
  queueUrl: string;
  max: number;
  dryRun: boolean;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Told when kept records could not be made visible again at once (they are when their hold ends). */
  onNotReleased?: ((problem: string) => void) | undefined;
}

/**
 * Pure: why the records read back are not the given-up batch, or undefined when they are.
 * A failure record describes the records the function was handed (docs/local-stack.md, "The
 * on-failure record under a filter"): `batchSize` is compared with the records of the range
 * the mapping's filter passes (`handed`), and the read must have reached the range's end.
 */
export function missingRecords(
  batch: StreamBatchFailure["DDBStreamBatchInfo"],
  found: { handed: number; inRange: number },
  reachedEnd: boolean,
  pastTheStream: string,
): string | undefined {
  const { handed, inRange } = found;
  if (reachedEnd && handed === batch.batchSize) return undefined;
  const where = reachedEnd
    ? `between sequence numbers ${batch.startSequenceNumber} and ${batch.endSequenceNumber}`
    : `from sequence number ${batch.startSequenceNumber}; the stream ended before ${batch.endSequenceNumber}`;
  const filtered = inRange === handed ? "" : ` (${inRange} records read, ${inRange - handed} filtered out)`;
  const difference =
    handed < batch.batchSize
      ? `${batch.batchSize - handed} missing`
      : handed > batch.batchSize
        ? `${handed - batch.batchSize} more than it held`
        : "its last record not reached";
  return `found ${handed} of the batch's ${batch.batchSize} records ${where}${filtered}: ${difference} (kept; run again later, or ${pastTheStream})`;
}

/** One failure record replayed: never throws (a failed call is its outcome). */
async function replayOne(
  options: ReplayStreamFailuresOptions,
  item: HeldFailure & { ok: true },
): Promise<{ result: BatchReplay; deleted: boolean }> {
  const { target } = options;
  const batch = item.failure.DDBStreamBatchInfo;
  const place = {
    messageId: item.message.MessageId,
    handed: 0,
    done: 0,
    from: batch.startSequenceNumber,
    to: batch.endSequenceNumber,
  };
  let range: Awaited<ReturnType<typeof readStreamRange>>;
  try {
    range = await readStreamRange(options.streams, batch);
  } catch (error) {
    return {
      result: { ...place, outcome: "failed", reason: `reading the stream: ${describeError(error)}` },
      deleted: false,
    };
  }
  if (!range.ok) return { result: { ...place, outcome: "gone", reason: range.reason }, deleted: false };
  const handed = range.records.filter(target.filter);
  const counted = { ...place, handed: handed.length };
  const missing = missingRecords(
    batch,
    { handed: handed.length, inRange: range.records.length },
    range.reachedEnd,
    target.pastTheStream,
  );
  if (missing !== undefined)
    return { result: { ...counted, outcome: "incomplete", reason: missing }, deleted: false };
  if (options.dryRun) return { result: { ...counted, outcome: "would replay" }, deleted: false };
  let ran: Awaited<ReturnType<StreamReplayTarget["run"]>>;
  try {
    ran = await target.run(handed);
  } catch (error) {
    return {
      result: {
        ...counted,
        outcome: "failed",
        reason: `the function's code failed: ${describeError(error)}`,
      },
      deleted: false,
    };
  }
  const done = { ...counted, done: ran.done };
  if (ran.failures.length > 0)
    return {
      result: { ...done, outcome: "not all done", reason: ran.failures[0]?.reason ?? "" },
      deleted: false,
    };
  try {
    await deleteHeld(options.sqs, options.queueUrl, item.message);
  } catch (error) {
    return {
      result: {
        ...done,
        outcome: "failed",
        reason: `done, but the failure record was not deleted (a later replay does the same again, harmlessly): ${describeError(error)}`,
      },
      deleted: false,
    };
  }
  return { result: { ...done, outcome: "replayed" }, deleted: true };
}

/**
 * Replays a stream function's given-up batches: reads each one's records back from the stream
 * (to the range's end), hands those its mapping's filter passes to the function's own code,
 * and deletes the failure record only when the stream gave back exactly the batch's records
 * and the function did every one. Harmless to repeat when the function is (the announcer's
 * ids, the history's items). Every record not deleted is made visible again at once; a failed
 * call is a record's outcome, so the report always comes back.
 */
export async function replayStreamFailures(options: ReplayStreamFailuresOptions): Promise<BatchReplay[]> {
  const { sqs, queueUrl } = options;
  const held = await holdFailures(sqs, queueUrl, options.max, 300);
  const results: BatchReplay[] = [];
  const keep: Message[] = [];
  for (const [index, item] of held.entries()) {
    options.onProgress?.(index, held.length);
    if (!item.ok) {
      results.push({
        messageId: item.message.MessageId,
        handed: 0,
        done: 0,
        outcome: "unreadable",
        reason: item.problem,
      });
      keep.push(item.message);
      continue;
    }
    const { result, deleted } = await replayOne(options, item);
    results.push(result);
    if (!deleted) keep.push(item.message);
  }
  options.onProgress?.(held.length, held.length);
  // What stays is visible again at once, not after the hold.
  const notReleased = await releaseReported(sqs, queueUrl, keep);
  if (notReleased !== undefined) options.onNotReleased?.(notReleased);
  return results;
}
