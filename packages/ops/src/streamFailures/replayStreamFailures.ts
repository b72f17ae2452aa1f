import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { describeError } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";
import { deleteHeld, releaseReported } from "../dlq/heldMessages";
import { type BatchReplay, isUnreplayable } from "./batchReplay";
import { type HeldFailure, holdFailures } from "./heldFailures";
import { missingRecords } from "./missingRecords";
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

/** A record no replay can ever do, as --discard-unreplayable shows it before deleting it. */
export interface UnreplayableRecord {
  messageId?: string | undefined;
  outcome: "gone" | "unreadable";
  reason: string;
  /** The message's body as received: the failure record in full (or whatever else it is). */
  body: string;
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
  /**
   * --discard-unreplayable: the records no replay can ever do (isUnreplayable) are handed to
   * `show` once the pass has read them all, and deleted only after it resolved (printed and
   * flushed); in a dry run they are shown and kept. Undefined: they are kept, as any other.
   */
  discard?: { show: (records: readonly UnreplayableRecord[]) => Promise<void> } | undefined;
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
 * --discard-unreplayable's step, after the pass: every unreplayable record shown first (all of
 * them, awaited), then each deleted. A record is deleted only once shown: when showing fails,
 * none is. Answers each record's result and whether it is gone from the queue.
 */
/** What an unreplayable record's result was before it was discarded. */
const unreplayableAs = (result: BatchReplay) => result.outcome as UnreplayableRecord["outcome"];

async function discardAll(
  options: ReplayStreamFailuresOptions & { discard: NonNullable<ReplayStreamFailuresOptions["discard"]> },
  unreplayable: ReadonlyArray<{ result: BatchReplay; message: Message }>,
): Promise<Array<{ result: BatchReplay; deleted: boolean }>> {
  try {
    await options.discard.show(
      unreplayable.map(({ result, message }) => ({
        messageId: message.MessageId,
        outcome: unreplayableAs(result),
        reason: result.reason ?? "",
        body: message.Body ?? "",
      })),
    );
  } catch (error) {
    return unreplayable.map(({ result }) => ({
      result: {
        ...result,
        outcome: "failed",
        reason: `not discarded: it could not be printed first (${describeError(error)})`,
      },
      deleted: false,
    }));
  }
  const outcomes: Array<{ result: BatchReplay; deleted: boolean }> = [];
  for (const { result, message } of unreplayable) {
    if (options.dryRun) {
      outcomes.push({
        result: { ...result, outcome: "would discard", was: unreplayableAs(result) },
        deleted: false,
      });
      continue;
    }
    try {
      await deleteHeld(options.sqs, options.queueUrl, message);
      outcomes.push({
        result: { ...result, outcome: "discarded", was: unreplayableAs(result) },
        deleted: true,
      });
    } catch (error) {
      outcomes.push({
        result: {
          ...result,
          outcome: "failed",
          reason: `printed, but not deleted (it stays in the queue): ${describeError(error)}`,
        },
        deleted: false,
      });
    }
  }
  return outcomes;
}

/**
 * Replays a stream function's given-up batches: reads each one's records back from the stream
 * (to the range's end), hands those its mapping's filter passes to the function's own code,
 * and deletes the failure record only when the stream gave back the whole batch (missingRecords)
 * and the function did every one. Harmless to repeat when the function is (the announcer's
 * ids, the history's items). With `discard`, the records no replay can do are shown, then
 * deleted. Every record not deleted is made visible again at once; a failed call is a
 * record's outcome, so the report always comes back.
 */
export async function replayStreamFailures(options: ReplayStreamFailuresOptions): Promise<BatchReplay[]> {
  const { sqs, queueUrl, discard } = options;
  const held = await holdFailures(sqs, queueUrl, options.max, 300);
  const results: BatchReplay[] = [];
  const keep: Message[] = [];
  const unreplayable: Array<{ index: number; result: BatchReplay; message: Message }> = [];
  for (const [index, item] of held.entries()) {
    options.onProgress?.(index, held.length);
    const { result, deleted } = item.ok
      ? await replayOne(options, item)
      : {
          result: {
            messageId: item.message.MessageId,
            handed: 0,
            done: 0,
            outcome: "unreadable" as const,
            reason: item.problem,
          },
          deleted: false,
        };
    results.push(result);
    if (deleted) continue;
    if (discard !== undefined && isUnreplayable(result.outcome))
      unreplayable.push({ index, result, message: item.message });
    else keep.push(item.message);
  }
  options.onProgress?.(held.length, held.length);
  if (discard !== undefined && unreplayable.length > 0) {
    const discarded = await discardAll({ ...options, discard }, unreplayable);
    for (const [i, { result, deleted }] of discarded.entries()) {
      const { index, message } = unreplayable[i] as (typeof unreplayable)[number];
      results[index] = result;
      if (!deleted) keep.push(message);
    }
  }
  // What stays is visible again at once, not after the hold.
  const notReleased = await releaseReported(sqs, queueUrl, keep);
  if (notReleased !== undefined) options.onNotReleased?.(notReleased);
  return results;
}
