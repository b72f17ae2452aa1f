import { describeError } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";
import { type FailureCondition, streamBatchFailure } from "./streamBatchFailure";
import type { Stopping, StreamSourceSettings } from "./streamSourceOptions";

export type GiveUp = (
  shardId: string,
  records: DynamoDBRecord[],
  condition: FailureCondition,
  invokes: number,
  functionError?: string,
) => Promise<boolean>;

/**
 * Gives up batches: sends each one's place in the stream to the on-failure destination (or
 * discards it, without one, as Lambda does). `giveUp` is false when stopped before the
 * destination took it: then the batch must not be checkpointed.
 */
export function onFailureDestination(
  settings: Pick<StreamSourceSettings, "onFailure" | "logger" | "streamArn" | "functionArn" | "retryDelayMs">,
  { signal, sleep }: Stopping,
): { giveUp: GiveUp; readonly givenUp: number } {
  const { onFailure, logger, streamArn, functionArn, retryDelayMs } = settings;
  let givenUp = 0;
  const giveUp: GiveUp = async (shardId, records, condition, invokes, functionError) => {
    givenUp++;
    const failure = streamBatchFailure(
      { shardId, streamArn, functionArn },
      records,
      condition,
      invokes,
      functionError,
    );
    if (!onFailure) {
      logger.error(
        { ...failure.DDBStreamBatchInfo, condition },
        "batch discarded: no on-failure destination",
      );
      return true;
    }
    // The destination is the records' last trace: keep trying until it takes them, or until
    // stopped — then nothing is checkpointed and the next source reads the batch again.
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        await onFailure(failure);
        logger.warn({ ...failure.DDBStreamBatchInfo, condition }, "batch sent to the on-failure destination");
        return true;
      } catch (error) {
        logger.error(
          { err: describeError(error), attempt },
          "could not reach the on-failure destination; retrying",
        );
        await sleep(Math.min(5000, retryDelayMs * attempt));
      }
    }
    givenUp--;
    return false;
  };
  return {
    giveUp,
    get givenUp() {
      return givenUp;
    },
  };
}
