import {
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type ShardIteratorType,
} from "@aws-sdk/client-dynamodb-streams";
import { describeError } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";
import type { ShardProgress } from "./shardProgress";
import { sequenceOf, toLambdaStreamRecord } from "./streamRecord";
import { bySequence } from "./streamResponse";
import type { Stopping, StreamSourceSettings } from "./streamSourceOptions";

type ReaderSettings = Pick<
  StreamSourceSettings,
  "streams" | "streamArn" | "checkpoints" | "startingPosition" | "batchSize" | "pollIntervalMs" | "logger"
>;

async function iteratorFor(settings: ReaderSettings, shardId: string): Promise<string | undefined> {
  const { streams, streamArn, checkpoints } = settings;
  const after = await checkpoints.get(shardId);
  const type: ShardIteratorType = after
    ? "AFTER_SEQUENCE_NUMBER"
    : (settings.startingPosition ?? "TRIM_HORIZON");
  const { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shardId,
      ShardIteratorType: type,
      ...(after ? { SequenceNumber: after } : {}),
    }),
  );
  return ShardIterator;
}

/** Reads up to batchSize records (GetRecords returns at most 1,000 a call). */
async function read(
  { streams, streamArn, batchSize }: ReaderSettings,
  signal: AbortSignal,
  iterator: string,
): Promise<{ records: DynamoDBRecord[]; next?: string | undefined }> {
  const records: DynamoDBRecord[] = [];
  let next: string | undefined = iterator;
  while (next && records.length < batchSize) {
    const answer: GetRecordsCommandOutput = await streams.send(
      new GetRecordsCommand({ ShardIterator: next, Limit: Math.min(1000, batchSize - records.length) }),
      { abortSignal: signal },
    );
    next = answer.NextShardIterator;
    const got = answer.Records ?? [];
    records.push(...got.map((record) => toLambdaStreamRecord(record, streamArn)));
    if (got.length === 0) break;
  }
  return { records: records.sort((a, b) => bySequence(sequenceOf(a), sequenceOf(b))), next };
}

/**
 * Reads a shard in order from its checkpoint, one batch at a time, each delivered before the
 * next is read, until the shard is closed and read to its end (then it is finished) or the
 * source stops. `deliver` is false when stopped mid-batch.
 */
export async function readShard(
  settings: ReaderSettings,
  { signal, sleep }: Stopping,
  progress: ShardProgress,
  shardId: string,
  deliver: (shardId: string, records: DynamoDBRecord[]) => Promise<boolean>,
): Promise<void> {
  let iterator: string | undefined;
  while (!signal.aborted) {
    try {
      iterator ??= await iteratorFor(settings, shardId);
      if (!iterator) break;
      const readAt = Date.now();
      const { records, next } = await read(settings, signal, iterator);
      iterator = next;
      if (records.length > 0) {
        progress.busy(shardId);
        // Stopped mid-batch: what was not checkpointed is read again by the next source.
        if (!(await deliver(shardId, records))) break;
        continue;
      }
      if (!iterator) break; // a closed shard, read to its end
      progress.idle(shardId, readAt);
      await sleep(settings.pollIntervalMs);
    } catch (error) {
      if (signal.aborted) break;
      // An iterator is good once and for 15 minutes: start again from the checkpoint.
      iterator = undefined;
      settings.logger.warn(
        { shardId, err: describeError(error) },
        "reading the stream failed; retrying from the checkpoint",
      );
      await sleep(1000);
    }
  }
  if (!signal.aborted) progress.finish(shardId);
}
