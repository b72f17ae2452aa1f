import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
} from "@aws-sdk/client-dynamodb-streams";
import { toLambdaStreamRecord } from "@rewards/local";
import type { DynamoDBRecord } from "aws-lambda";
import type { StreamEntry } from "./consumerLag";

/** Every shard the stream lists, page after page. */
async function shardsOf(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let start: string | undefined;
  do {
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
    );
    shards.push(...(StreamDescription?.Shards ?? []));
    start = StreamDescription?.LastEvaluatedShardId;
  } while (start);
  return shards;
}

/**
 * The local stream's records after each shard's checkpoint (from its start where there is
 * none), each with whether `handed` (the consumer's mapping filter) passes it. For the local
 * stack only: its stream answers every record it holds at once, so a shard's first empty page
 * is its end (on AWS, GetRecords may answer empty pages before records, and IteratorAge is
 * Lambda's own measure anyway).
 */
export async function streamEntriesAfter(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  checkpoints: Readonly<Record<string, string>>,
  handed: (record: DynamoDBRecord) => boolean,
): Promise<StreamEntry[]> {
  const entries: StreamEntry[] = [];
  for (const shard of await shardsOf(streams, streamArn)) {
    const shardId = shard.ShardId as string;
    const after = checkpoints[shardId];
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: after }
          : { ShardIteratorType: "TRIM_HORIZON" }),
      }),
    );
    while (iterator) {
      const page: GetRecordsCommandOutput = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }),
      );
      const records = page.Records ?? [];
      for (const record of records)
        entries.push({
          shardId,
          sequenceNumber: record.dynamodb?.SequenceNumber ?? "0",
          createdAtMs: record.dynamodb?.ApproximateCreationDateTime?.getTime(),
          handed: handed(toLambdaStreamRecord(record, streamArn)),
        });
      if (records.length === 0) break;
      iterator = page.NextShardIterator;
    }
  }
  return entries;
}
