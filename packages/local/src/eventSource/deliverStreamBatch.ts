import type { DynamoDBRecord } from "aws-lambda";
import type { GiveUp } from "./onFailureDestination";
import { sequenceOf } from "./streamRecord";
import type { StreamVerdict } from "./streamResponse";
import type { Stopping, StreamSourceSettings } from "./streamSourceOptions";

interface Pending {
  records: DynamoDBRecord[];
  /** Retries this batch (or the batch it was split from) has had. */
  retries: number;
}

export interface BatchDelivery {
  settings: Pick<
    StreamSourceSettings,
    | "checkpoints"
    | "filter"
    | "maximumRecordAgeSeconds"
    | "maximumRetryAttempts"
    | "bisectBatchOnFunctionError"
    | "retryDelayMs"
    | "clock"
    | "logger"
  >;
  stopping: Stopping;
  invoke: (shardId: string, records: DynamoDBRecord[]) => Promise<StreamVerdict>;
  giveUp: GiveUp;
}

/**
 * Delivers one batch read from a shard until all of it is done with: succeeded, filtered out
 * or given up. False when stopped first: what is not checkpointed is read again.
 */
export async function deliverStreamBatch(
  { settings, stopping, invoke, giveUp }: BatchDelivery,
  shardId: string,
  batch: DynamoDBRecord[],
): Promise<boolean> {
  const { checkpoints, filter, maximumRecordAgeSeconds, maximumRetryAttempts, logger } = settings;
  const queue: Pending[] = [{ records: batch, retries: 0 }];
  const done = (record: DynamoDBRecord | undefined) =>
    record ? checkpoints.set(shardId, sequenceOf(record)) : undefined;
  while (queue.length > 0) {
    const current = queue.shift() as Pending;
    if (maximumRecordAgeSeconds >= 0) {
      const oldest = settings.clock() / 1000 - maximumRecordAgeSeconds;
      // Only records the function would be handed: a filtered-out one is simply done (and
      // not counted in the failure record's batchSize, as on the retry path).
      const tooOld = current.records.filter(
        (r) => filter(r) && (r.dynamodb?.ApproximateCreationDateTime ?? Infinity) < oldest,
      );
      if (tooOld.length > 0) {
        if (!(await giveUp(shardId, tooOld, "RecordAgeExceeded", current.retries))) return false;
        await done(tooOld.at(-1));
        current.records = current.records.filter((r) => !tooOld.includes(r));
      }
    }
    const invoked = current.records.filter(filter);
    if (invoked.length === 0) {
      await done(current.records.at(-1));
      continue;
    }
    if (stopping.signal.aborted) return false;
    const verdict = await invoke(shardId, invoked);
    if (verdict.kind === "succeeded") {
      await done(current.records.at(-1));
      continue;
    }
    let rest = current.records;
    if (verdict.kind === "retryFrom") {
      const from = current.records.findIndex((r) => sequenceOf(r) === verdict.sequenceNumber);
      await done(current.records[from - 1]);
      rest = current.records.slice(from);
    } else if (settings.bisectBatchOnFunctionError && invoked.length > 1) {
      const middle = current.records.indexOf(invoked[Math.floor(invoked.length / 2)] as DynamoDBRecord);
      queue.unshift(
        { records: current.records.slice(0, middle), retries: current.retries },
        { records: current.records.slice(middle), retries: current.retries },
      );
      continue;
    }
    const retries = current.retries + 1;
    if (maximumRetryAttempts >= 0 && retries > maximumRetryAttempts) {
      const error = verdict.kind === "wholeBatchFailed" ? "Unhandled" : undefined;
      // The failure record describes the records the function was handed, as the age path's
      // does: the filtered-out ones between them are in its range but not in its batchSize
      // (docs/local-stack.md, "The on-failure record under a filter").
      if (!(await giveUp(shardId, rest.filter(filter), "RetryAttemptsExhausted", retries, error)))
        return false;
      await done(rest.at(-1));
      continue;
    }
    logger.warn(
      {
        shardId,
        from: sequenceOf(rest[0] as DynamoDBRecord),
        size: rest.length,
        retry: retries,
        reason: verdict.kind === "wholeBatchFailed" ? verdict.reason : "partial batch response",
      },
      "retrying the batch",
    );
    queue.unshift({ records: rest, retries });
    await stopping.sleep(settings.retryDelayMs);
  }
  return true;
}
