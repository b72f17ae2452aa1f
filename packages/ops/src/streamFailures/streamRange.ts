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
  | {
      ok: true;
      records: DynamoDBRecord[];
      /** Whether the read reached the range's end sequence number (else it stopped at the shard's end or its bound). */
      reachedEnd: boolean;
    }
  /** The stream no longer holds them (24 hours' retention), or the stream itself is gone. */
  | { ok: false; reason: string };

/** Errors that mean the records cannot be read back from this stream, ever. */
const GONE = new Set(["TrimmedDataAccessException", "ResourceNotFoundException"]);

/**
 * Empty pages read in a row before giving up on an open shard: GetRecords may answer empty
 * pages before the records that follow (AWS documents it), so one empty page is no end.
 */
export const MAX_EMPTY_PAGES = 50;

/** Pure: where a page leaves the read of a range ending at `end`. */
export function pageStep(
  sequenceNumbers: readonly bigint[],
  end: bigint,
): { take: number; reachedEnd: boolean } {
  const past = sequenceNumbers.findIndex((sequence) => sequence > end);
  const take = past === -1 ? sequenceNumbers.length : past;
  return { take, reachedEnd: past !== -1 || sequenceNumbers.at(take - 1) === end };
}

/**
 * The records of a given-up batch, read back from the stream by their place in it (the
 * failure record carries no records): from `startSequenceNumber` to `endSequenceNumber`.
 * It reads until the end sequence number, the shard's end (no next iterator), or
 * `maxEmptyPages` empty pages in a row, whichever comes first.
 */
export async function readStreamRange(
  streams: DynamoDBStreamsClient,
  batch: StreamBatchFailure["DDBStreamBatchInfo"],
  maxEmptyPages = MAX_EMPTY_PAGES,
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
    let emptyPages = 0;
    while (iterator && emptyPages < maxEmptyPages) {
      const answer: GetRecordsCommandOutput = await streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }),
      );
      const got = answer.Records ?? [];
      const step = pageStep(
        got.map((record) => BigInt(record.dynamodb?.SequenceNumber ?? "0")),
        end,
      );
      for (const record of got.slice(0, step.take))
        records.push(toLambdaStreamRecord(record, batch.streamArn));
      if (step.reachedEnd) return { ok: true, records, reachedEnd: true };
      emptyPages = got.length === 0 ? emptyPages + 1 : 0;
      iterator = answer.NextShardIterator;
    }
    return { ok: true, records, reachedEnd: false };
  } catch (error) {
    const name = (error as { name?: string }).name ?? "";
    if (!GONE.has(name)) throw error;
    // "Not found" from a client asking another region than the stream's is a wrong setting,
    // not a stream gone: a record taken for gone may be discarded for good.
    const asked = name === "ResourceNotFoundException" ? await regionOf(streams) : undefined;
    const region = streamRegion(batch.streamArn);
    if (asked !== undefined && region !== undefined && asked !== region)
      throw new Error(
        `the stream ${batch.streamArn} is in ${region}, but the client asks ${asked} (check AWS_REGION): ${describeError(error)}`,
      );
    return { ok: false, reason: describeError(error) };
  }
}

/** Pure: the region an ARN names (`arn:aws:dynamodb:<region>:…`), if it has one. */
export function streamRegion(arn: string): string | undefined {
  const region = arn.split(":")[3];
  return region === undefined || region === "" ? undefined : region;
}

/** The region the client sends to, when it can say. */
async function regionOf(streams: DynamoDBStreamsClient): Promise<string | undefined> {
  try {
    return await streams.config.region();
  } catch {
    return undefined;
  }
}
