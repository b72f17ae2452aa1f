import {
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
} from "@aws-sdk/client-dynamodb-streams";
import type { StreamBatchFailure } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { toLambdaStreamRecord } from "@rewards/local";
import type { DynamoDBRecord } from "aws-lambda";

export type StreamRange =
  | { ok: true; records: DynamoDBRecord[] }
  /** The stream no longer holds them (24 hours' retention), or the stream itself is gone. */
  | { ok: false; reason: string };

/** Errors that mean the records cannot be read back from this stream, ever. */
const GONE = new Set(["TrimmedDataAccessException", "ResourceNotFoundException"]);

/**
 * The records of a given-up batch, read back from the stream by their place in it (the
 * failure record carries no records): from `startSequenceNumber` to `endSequenceNumber`.
 */
export async function readStreamRange(
  streams: DynamoDBStreamsClient,
  batch: StreamBatchFailure["DDBStreamBatchInfo"],
): Promise<StreamRange> {
  const end = BigInt(batch.endSequenceNumber);
  const records: DynamoDBRecord[] = [];
  try {
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: batch.streamArn,
        ShardId: batch.shardId,
        ShardIteratorType: "AT_SEQUENCE_NUMBER",
        SequenceNumber: batch.startSequenceNumber,
      }),
    );
    while (iterator) {
      const answer: GetRecordsCommandOutput = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }),
      );
      const got = answer.Records ?? [];
      for (const record of got) {
        if (BigInt(record.dynamodb?.SequenceNumber ?? "0") > end) return { ok: true, records };
        records.push(toLambdaStreamRecord(record, batch.streamArn));
      }
      // Nothing more yet: the range ended before the shard's present end.
      if (got.length === 0) break;
      iterator = answer.NextShardIterator;
    }
    return { ok: true, records };
  } catch (error) {
    const name = (error as { name?: string }).name ?? "";
    if (GONE.has(name)) return { ok: false, reason: describeError(error) };
    throw error;
  }
}
