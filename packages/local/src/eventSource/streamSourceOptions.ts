import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { StreamBatchFailure } from "@rewards/core";
import type { Logger } from "@rewards/core/aws";
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { type Checkpoints, memoryCheckpoints } from "./checkpoints";

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

/** The options with every default filled in, as each part of a running source reads them. */
export type StreamSourceSettings = ReturnType<typeof streamSourceSettings>;

/** What every part of a running source shares: a stop aborts `signal` and cuts any `sleep` short. */
export interface Stopping {
  signal: AbortSignal;
  sleep: (ms: number) => Promise<void>;
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

/** Throws a RangeError naming every option Lambda would refuse. */
export function streamSourceSettings(options: StreamSourceOptions) {
  const batchSize = options.batchSize ?? 100;
  const maximumRetryAttempts = options.maximumRetryAttempts ?? -1;
  const maximumRecordAgeSeconds = options.maximumRecordAgeSeconds ?? -1;
  checkOptions({ batchSize, maximumRetryAttempts, maximumRecordAgeSeconds });
  return {
    ...options,
    batchSize,
    maximumRetryAttempts,
    maximumRecordAgeSeconds,
    filter: options.filter ?? (() => true),
    checkpoints: options.checkpoints ?? memoryCheckpoints(),
    pollIntervalMs: options.pollIntervalMs ?? 250,
    retryDelayMs: options.retryDelayMs ?? 200,
    timeoutMs: options.timeoutMs ?? 30_000,
    functionArn: options.functionArn ?? "arn:aws:lambda:local:000000000000:function:rewards-announcer-local",
    clock: options.clock ?? (() => Date.now()),
  };
}
