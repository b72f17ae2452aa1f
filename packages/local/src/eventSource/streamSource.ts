import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from "@aws-sdk/client-dynamodb-streams";
import type { StreamBatchFailure } from "@rewards/core";
import { describeError, type Logger } from "@rewards/core/aws";
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { type Checkpoints, memoryCheckpoints } from "./checkpoints";
import { invokeFunction } from "./invokeFunction";
import { toLambdaStreamRecord } from "./streamRecord";
import { bySequence, judgeStreamResponse } from "./streamResponse";

export type StreamHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
  // biome-ignore lint/suspicious/noConfusingVoidType: a Lambda handler may legitimately return nothing
) => Promise<DynamoDBBatchResponse | void>;

export interface StreamSourceOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  handler: StreamHandler;
  logger: Logger;
  /** Records per invocation, 1–10,000 (Lambda's default for DynamoDB: 100). */
  batchSize?: number;
  /** The mapping's filter criteria: records it refuses are never delivered, and count as processed. */
  filter?: (record: DynamoDBRecord) => boolean;
  /** Retries of a failing batch before it goes to `onFailure`; -1 (the default, as on Lambda) retries until the record expires. */
  maximumRetryAttempts?: number;
  /** Records older than this go to `onFailure` without an invocation; -1 (the default) means no limit. */
  maximumRecordAgeSeconds?: number;
  /** A batch whose invocation fails is split in two and each half retried (splitting uses no retry). */
  bisectBatchOnFunctionError?: boolean;
  /** The on-failure destination: where a given-up batch's place in the stream goes. Absent: it is discarded, as on Lambda. */
  onFailure?: (failure: StreamBatchFailure) => Promise<void>;
  /** Where a shard with no checkpoint starts (default TRIM_HORIZON: every record the stream still holds). */
  startingPosition?: "TRIM_HORIZON" | "LATEST";
  checkpoints?: Checkpoints;
  /** How often an idle shard is polled (Lambda: 4 times a second). */
  pollIntervalMs?: number;
  /** Between retries of a failed batch. */
  retryDelayMs?: number;
  /** Per-invocation timeout (default 30 s); see PollerOptions.handlerEnforcesTimeout. */
  timeoutMs?: number;
  handlerEnforcesTimeout?: boolean;
  /** Named in failure records (requestContext.functionArn). */
  functionArn?: string;
  onBatch?: (summary: StreamBatchSummary) => void;
  /** Epoch ms, for the records' age (tests move it forward). Date.now by default. */
  clock?: () => number;
}

export interface StreamBatchSummary {
  shardId: string;
  /** The records delivered to the function in this invocation. */
  records: DynamoDBRecord[];
  verdict: "succeeded" | "retry" | "wholeBatchFailed";
  reason?: string;
  durationMs: number;
}

export interface StreamSource {
  /** Ends after the invocation in flight; what it has not checkpointed is read again next time. */
  stop(): Promise<void>;
  done: Promise<void>;
  /**
   * True when every shard has been read to its end, by a read that began at or after `since`
   * (epoch ms), and everything read before is checkpointed: what was written before `since`
   * has been delivered.
   */
  caughtUp(since?: number): boolean;
  /** Batches given up and sent to the failure destination (or discarded without one). */
  readonly givenUp: number;
}

/** Options Lambda would refuse for a DynamoDB stream mapping. */
function checkOptions(
  o: Required<Pick<StreamSourceOptions, "batchSize" | "maximumRetryAttempts" | "maximumRecordAgeSeconds">>,
) {
  const problems: string[] = [];
  if (!Number.isInteger(o.batchSize) || o.batchSize < 1 || o.batchSize > 10_000)
    problems.push(`batch size ${o.batchSize} must be a whole number from 1 to 10,000`);
  if (
    !Number.isInteger(o.maximumRetryAttempts) ||
    o.maximumRetryAttempts < -1 ||
    o.maximumRetryAttempts > 10_000
  )
    problems.push(`maximum retry attempts ${o.maximumRetryAttempts} must be -1 (infinite) or 0 to 10,000`);
  const age = o.maximumRecordAgeSeconds;
  if (!Number.isInteger(age) || (age !== -1 && (age < 60 || age > 604_800)))
    problems.push(`maximum record age ${age} s must be -1 (infinite) or 60 to 604,800`);
  if (problems.length > 0) throw new RangeError(`invalid stream source options: ${problems.join("; ")}`);
}

const sequenceOf = (record: DynamoDBRecord): string => record.dynamodb?.SequenceNumber ?? "0";
const arrivalOf = (record: DynamoDBRecord | undefined): string | undefined => {
  const seconds = record?.dynamodb?.ApproximateCreationDateTime;
  return seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();
};

interface Pending {
  records: DynamoDBRecord[];
  /** Retries this batch (or the batch it was split from) has had. */
  retries: number;
}

/**
 * A local DynamoDB stream event source mapping with Lambda's rules for streams: each shard
 * read in order, one batch at a time; a parent shard finished before its children; filtered
 * records never delivered; a batch retried from the lowest sequence number the function
 * reports (or whole, or bisected, when the invocation fails); the checkpoint moved only past
 * what succeeded or was given up; a batch given up after `maximumRetryAttempts` (or too old)
 * goes to the on-failure destination as Lambda describes it, and the shard moves on.
 */
export async function startStreamSource(options: StreamSourceOptions): Promise<StreamSource> {
  const { streams, streamArn, handler, logger } = options;
  const batchSize = options.batchSize ?? 100;
  const maximumRetryAttempts = options.maximumRetryAttempts ?? -1;
  const maximumRecordAgeSeconds = options.maximumRecordAgeSeconds ?? -1;
  checkOptions({ batchSize, maximumRetryAttempts, maximumRecordAgeSeconds });
  const filter = options.filter ?? (() => true);
  const checkpoints = options.checkpoints ?? memoryCheckpoints();
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const functionArn =
    options.functionArn ?? "arn:aws:lambda:local:000000000000:function:rewards-announcer-local";
  const stopping = new AbortController();
  const sleep = (ms: number) => delay(ms, undefined, { signal: stopping.signal }).catch(() => {});
  const running = new Map<string, Promise<void>>();
  const finished = new Set<string>();
  /** When each shard's last read that found nothing began; cleared by one that found records. */
  const idleSince = new Map<string, number>();
  let givenUp = 0;

  async function iteratorFor(shardId: string): Promise<string | undefined> {
    const after = await checkpoints.get(shardId);
    const type: ShardIteratorType = after
      ? "AFTER_SEQUENCE_NUMBER"
      : (options.startingPosition ?? "TRIM_HORIZON");
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

  async function giveUp(
    shardId: string,
    records: DynamoDBRecord[],
    condition: string,
    invokes: number,
    functionError?: string,
  ) {
    givenUp++;
    const failure: StreamBatchFailure = {
      requestContext: { requestId: randomUUID(), functionArn, condition, approximateInvokeCount: invokes },
      responseContext: {
        statusCode: 200,
        executedVersion: "$LATEST",
        ...(functionError ? { functionError } : {}),
      },
      version: "1.0",
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: sequenceOf(records[0] as DynamoDBRecord),
        endSequenceNumber: sequenceOf(records.at(-1) as DynamoDBRecord),
        ...(arrivalOf(records[0]) ? { approximateArrivalOfFirstRecord: arrivalOf(records[0]) } : {}),
        ...(arrivalOf(records.at(-1)) ? { approximateArrivalOfLastRecord: arrivalOf(records.at(-1)) } : {}),
        batchSize: records.length,
        streamArn,
      },
    };
    if (!options.onFailure) {
      logger.error(
        { ...failure.DDBStreamBatchInfo, condition },
        "batch discarded: no on-failure destination",
      );
      return true;
    }
    // The destination is the records' last trace: keep trying until it takes them, or until
    // stopped — then nothing is checkpointed and the next source reads the batch again.
    for (let attempt = 1; !stopping.signal.aborted; attempt++) {
      try {
        await options.onFailure(failure);
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
  }

  async function invoke(shardId: string, records: DynamoDBRecord[]) {
    const started = Date.now();
    let verdict: ReturnType<typeof judgeStreamResponse>;
    try {
      verdict = judgeStreamResponse(
        records,
        await invokeFunction(
          handler,
          { Records: records },
          timeoutMs,
          options.handlerEnforcesTimeout === true,
        ),
      );
    } catch (error) {
      verdict = { kind: "wholeBatchFailed", reason: describeError(error) };
    }
    options.onBatch?.({
      shardId,
      records,
      verdict: verdict.kind === "retryFrom" ? "retry" : verdict.kind,
      ...(verdict.kind === "wholeBatchFailed" ? { reason: verdict.reason } : {}),
      durationMs: Date.now() - started,
    });
    return verdict;
  }

  /** Delivers one batch read from a shard until all of it is done with: succeeded, filtered out or given up. */
  async function deliver(shardId: string, batch: DynamoDBRecord[]): Promise<boolean> {
    const queue: Pending[] = [{ records: batch, retries: 0 }];
    const done = (record: DynamoDBRecord | undefined) =>
      record ? checkpoints.set(shardId, sequenceOf(record)) : undefined;
    while (queue.length > 0) {
      const current = queue.shift() as Pending;
      if (maximumRecordAgeSeconds >= 0) {
        const oldest = (options.clock ?? Date.now)() / 1000 - maximumRecordAgeSeconds;
        // Only records the function would be handed: a filtered-out one is simply done.
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
      } else if (options.bisectBatchOnFunctionError && invoked.length > 1) {
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
        if (!(await giveUp(shardId, rest, "RetryAttemptsExhausted", retries, error))) return false;
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
      await sleep(retryDelayMs);
    }
    return true;
  }

  /** Reads up to batchSize records (GetRecords returns at most 1,000 a call). */
  async function read(iterator: string): Promise<{ records: DynamoDBRecord[]; next?: string | undefined }> {
    const records: DynamoDBRecord[] = [];
    let next: string | undefined = iterator;
    while (next && records.length < batchSize) {
      const answer: GetRecordsCommandOutput = await streams.send(
        new GetRecordsCommand({ ShardIterator: next, Limit: Math.min(1000, batchSize - records.length) }),
        { abortSignal: stopping.signal },
      );
      next = answer.NextShardIterator;
      const got = answer.Records ?? [];
      records.push(...got.map((record) => toLambdaStreamRecord(record, streamArn)));
      if (got.length === 0) break;
    }
    return { records: records.sort((a, b) => bySequence(sequenceOf(a), sequenceOf(b))), next };
  }

  async function runShard(shardId: string): Promise<void> {
    let iterator: string | undefined;
    while (!stopping.signal.aborted) {
      try {
        iterator ??= await iteratorFor(shardId);
        if (!iterator) break;
        const readAt = Date.now();
        const { records, next } = await read(iterator);
        iterator = next;
        if (records.length > 0) {
          idleSince.delete(shardId);
          // Stopped mid-batch: what was not checkpointed is read again by the next source.
          if (!(await deliver(shardId, records))) break;
          continue;
        }
        if (!iterator) break; // a closed shard, read to its end
        idleSince.set(shardId, readAt);
        await sleep(pollIntervalMs);
      } catch (error) {
        if (stopping.signal.aborted) break;
        // An iterator is good once and for 15 minutes: start again from the checkpoint.
        iterator = undefined;
        logger.warn(
          { shardId, err: describeError(error) },
          "reading the stream failed; retrying from the checkpoint",
        );
        await sleep(1000);
      }
    }
    if (!stopping.signal.aborted) finished.add(shardId);
  }

  /** Starts every shard whose parent is finished (or unknown: trimmed away); again every few seconds. */
  async function discover(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const shards: Shard[] = [];
        let start: string | undefined;
        do {
          const { StreamDescription } = await streams.send(
            new DescribeStreamCommand({
              StreamArn: streamArn,
              ...(start ? { ExclusiveStartShardId: start } : {}),
            }),
            { abortSignal: stopping.signal },
          );
          shards.push(...(StreamDescription?.Shards ?? []));
          start = StreamDescription?.LastEvaluatedShardId;
        } while (start);
        const known = new Set(shards.map((shard) => shard.ShardId));
        for (const shard of shards) {
          const id = shard.ShardId as string;
          const parent = shard.ParentShardId;
          if (running.has(id) || (parent && known.has(parent) && !finished.has(parent))) continue;
          running.set(id, runShard(id));
        }
      } catch (error) {
        if (stopping.signal.aborted) break;
        logger.warn({ err: describeError(error) }, "describing the stream failed; retrying");
      }
      await sleep(2000);
    }
  }

  const discovery = discover();
  const done = discovery.then(async () => {
    await Promise.all(running.values());
  });
  return {
    done,
    caughtUp: (since = 0) =>
      running.size > 0 &&
      [...running.keys()].every(
        (id) => finished.has(id) || (idleSince.get(id) ?? Number.NEGATIVE_INFINITY) >= since,
      ),
    get givenUp() {
      return givenUp;
    },
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
}
