import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { type StreamBatchFailure, streamBatchFailureSchema } from "@rewards/core";
import { holdMessages } from "../dlq/heldMessages";

/** A message of a stream function's failure queue, held: Lambda's failure record, or why it is not one. */
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

/** Pure: a failure queue's message read as Lambda's on-failure record for a stream batch. */
export function heldFailureOf(message: Message): HeldFailure {
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
}

/** Receives and holds up to `max` failure records, each parsed (see holdMessages). */
export async function holdFailures(
  sqs: SQSClient,
  queueUrl: string,
  max: number,
  holdSeconds: number,
): Promise<HeldFailure[]> {
  return (await holdMessages(sqs, queueUrl, max, holdSeconds)).map(heldFailureOf);
}
