import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isAnnouncerCandidate } from "@rewards/announcer";
import { createStreamsClient, describeError, tableStreamArn } from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";
import { isHistoryCandidate } from "@rewards/history";
import { savedCheckpoints } from "@rewards/local";
import type { DynamoDBRecord } from "aws-lambda";
import { clientsFor } from "../clients";
import { latestMaximum } from "../cloudwatchLatest";
import { sampleDlq, tally } from "../dlq/inspect";
import { cloudwatchFor, queueCounts } from "../queues/queueCounts";
import { readCurrentRules } from "../rules/rulesVersions";
import { type ConsumerLag, lagOfEntries, lagOfIteratorAge, type StreamConsumer } from "./consumerLag";
import { stageAlarms } from "./stageAlarms";
import {
  type DlqCounts,
  type Part,
  type RulesInStatus,
  type StatusParts,
  type StatusVerdict,
  statusVerdictOf,
} from "./statusVerdict";
import { streamEntriesAfter } from "./streamEntries";

/** The rules in force as `status` shows them. */
async function rulesInStatus(dynamo: DynamoDBDocumentClient, tableName: string): Promise<RulesInStatus> {
  const current = await readCurrentRules(dynamo, tableName);
  if (current.kind === "invalid") return { version: current.pointedVersion ?? null, invalid: current.why };
  const { version, publishedAt, digest } = current.version;
  return { version, publishedAt: publishedAt ?? null, digest };
}

type PerConsumer<T> = Record<StreamConsumer, T>;

/** What `rewards status` reads, by the variables that name it (undefined: unset). */
export interface StatusSources {
  sqs: SQSClient;
  dynamo: DynamoDBDocumentClient;
  streams: DynamoDBStreamsClient;
  /** Undefined on the local stack: it has no CloudWatch (no alarms, no SQS or Lambda metrics). */
  cloudwatch: CloudWatchClient | undefined;
  stage: string | undefined;
  queueUrl: string | undefined;
  dlqUrl: string | undefined;
  tableName: string | undefined;
  failureQueueUrls: PerConsumer<string | undefined>;
  checkpointFiles: PerConsumer<string | undefined>;
  functionNames: PerConsumer<string | undefined>;
  alarmNames: readonly string[] | undefined;
}

export interface StatusReport extends StatusParts {
  verdict: StatusVerdict;
  reasons: string[];
  /** When it was read, ISO. */
  at: string;
  target: "local" | "aws";
  stage: string | null;
}

/** The copies of the DLQ read for its breakdown (each held a moment and released): `dlq stats`' default. */
export const DLQ_SAMPLE = 1000;

/** The local stack is wherever an endpoint variable points (`rewards dev` prints them); else AWS. */
export function statusSourcesFor(config: ToolConfig): StatusSources {
  const local = config.AWS_ENDPOINT_URL_SQS !== undefined || config.AWS_ENDPOINT_URL_DYNAMODB !== undefined;
  return {
    ...clientsFor(config),
    streams: createStreamsClient(config),
    cloudwatch: local ? undefined : cloudwatchFor(config),
    stage: config.REWARDS_STAGE,
    queueUrl: config.QUEUE_URL,
    dlqUrl: config.DLQ_URL,
    tableName: config.TABLE_NAME,
    failureQueueUrls: {
      announcer: config.ANNOUNCER_FAILURE_QUEUE_URL,
      history: config.HISTORY_FAILURE_QUEUE_URL,
    },
    checkpointFiles: { announcer: config.ANNOUNCER_CHECKPOINT_FILE, history: config.HISTORY_CHECKPOINT_FILE },
    functionNames: { announcer: config.ANNOUNCER_FUNCTION_NAME, history: config.HISTORY_FUNCTION_NAME },
    alarmNames: config.REWARDS_ALARM_NAMES,
  };
}

/** A part the target does not have (the local stack: no CloudWatch). */
const notHere = (reason: string) => Promise.resolve({ kind: "notHere", reason } as const);

/** A part that cannot be read for want of a variable: its reason is the message as it is. */
class Unset extends Error {
  constructor(variable: string, hint = "") {
    super(`${variable} is not set${hint}`);
  }
}

function needs<T>(value: T | undefined, variable: string, hint?: string): T {
  if (value === undefined) throw new Unset(variable, hint);
  return value;
}

/** Reads one part; whatever fails is that part's reason, in one line, never the report's end. */
async function part<T extends object>(read: () => Promise<T>): Promise<Part<T>> {
  try {
    return { kind: "read", ...(await read()) };
  } catch (error) {
    return { kind: "unknown", reason: error instanceof Unset ? error.message : describeError(error) };
  }
}

const RESTAGE =
  " (`rewards env` exports a stage's; a stage deployed before it was an output has none: deploy it again)";

const CONSUMER_VARIABLES: PerConsumer<{ checkpoint: string; functionName: string; failures: string }> = {
  announcer: {
    checkpoint: "ANNOUNCER_CHECKPOINT_FILE",
    functionName: "ANNOUNCER_FUNCTION_NAME",
    failures: "ANNOUNCER_FAILURE_QUEUE_URL",
  },
  history: {
    checkpoint: "HISTORY_CHECKPOINT_FILE",
    functionName: "HISTORY_FUNCTION_NAME",
    failures: "HISTORY_FAILURE_QUEUE_URL",
  },
};

/** Each mapping's filter: the records its function is handed, the only ones it can be behind on. */
const HANDED: PerConsumer<(record: DynamoDBRecord) => boolean> = {
  announcer: isAnnouncerCandidate,
  history: isHistoryCandidate,
};

/**
 * A local stream function's lag: its checkpoint file (where the source keeps, per shard, the
 * last record it is done with) against the table's stream. No file yet is a function that has
 * done no batch — not running (`rewards dev --no-history`), or just started: every record its
 * filter passes is behind, so a stopped consumer's lag grows with each award, never reads 0.
 */
async function localLag(sources: StatusSources, consumer: StreamConsumer, now: number): Promise<ConsumerLag> {
  const variables = CONSUMER_VARIABLES[consumer];
  const file = needs(
    sources.checkpointFiles[consumer],
    variables.checkpoint,
    ": a local stream function's place is known only to its own process unless it keeps it in a file (`rewards dev` prints the variable; `rewards announcer`/`history --checkpoint FILE`)",
  );
  const streamArn = await tableStreamArn(sources.dynamo, needs(sources.tableName, "TABLE_NAME"));
  const saved = await savedCheckpoints(file);
  const ours = saved?.streamArn === streamArn;
  const entries = await streamEntriesAfter(
    sources.streams,
    streamArn,
    ours ? saved.shards : {},
    HANDED[consumer],
  );
  const lag = lagOfEntries(entries, ours ? saved.shards : {}, now);
  const note =
    saved === undefined
      ? "no checkpoint yet: it has done no batch (not running, or just started)"
      : ours
        ? undefined
        : "its checkpoint is of another stream (an earlier stack): it would start from the stream's start";
  return { source: "checkpoint", ...lag, ...(note === undefined ? {} : { note }) };
}

async function cloudwatchLag(
  cloudwatch: CloudWatchClient,
  sources: StatusSources,
  consumer: StreamConsumer,
  now: number,
): Promise<ConsumerLag> {
  const functionName = needs(
    sources.functionNames[consumer],
    CONSUMER_VARIABLES[consumer].functionName,
    RESTAGE,
  );
  return lagOfIteratorAge(
    await latestMaximum(
      cloudwatch,
      { namespace: "AWS/Lambda", metricName: "IteratorAge", dimensions: { FunctionName: functionName } },
      new Date(now),
    ),
  );
}

/** Messages in a queue, whatever their state: a given-up batch is one however it is held. */
async function batchesIn(sqs: SQSClient, queueUrl: string): Promise<{ batches: number }> {
  const { visible, inFlight, delayed } = await queueCounts(sqs, queueUrl);
  return { batches: visible + inFlight + delayed };
}

/** A part per stream function, read at once. */
async function perConsumer<T extends object>(
  read: (consumer: StreamConsumer) => Promise<T>,
): Promise<PerConsumer<Part<T>>> {
  const [announcer, history] = await Promise.all([
    part(() => read("announcer")),
    part(() => read("history")),
  ]);
  return { announcer, history };
}

/** The queue's oldest message, from CloudWatch (SQS's API has no such attribute). */
async function oldestMessageOf(cloudwatch: CloudWatchClient, queueUrl: string, now: number) {
  const latest = await latestMaximum(
    cloudwatch,
    {
      namespace: "AWS/SQS",
      metricName: "ApproximateAgeOfOldestMessage",
      dimensions: { QueueName: queueUrl.split("/").pop() ?? "" },
    },
    new Date(now),
  );
  if (latest.kind === "failed") throw new Error(`CloudWatch: ${latest.reason}`);
  return latest.kind === "value"
    ? { ageSeconds: latest.value }
    : { ageSeconds: null, note: "no datapoint in the last 10 minutes" };
}

/** The DLQ, every copy counted, its reasons from the copies read (each held a moment, then released). */
async function dlqCountsOf(sqs: SQSClient, dlqUrl: string): Promise<DlqCounts> {
  const { parked, ...counts } = await sampleDlq(sqs, dlqUrl, DLQ_SAMPLE);
  return {
    ...counts,
    messages: counts.visible + counts.inFlight + counts.delayed,
    read: parked.length,
    byReason: tally(parked.map((message) => message.error)),
  };
}

/**
 * Everything on call looks at first, each part read at once and on its own: one that cannot
 * be read is unknown with its reason, and the others are still shown. Nothing is consumed:
 * the DLQ's messages are held a moment for their reasons and released (sampleDlq).
 */
export async function readStatus(sources: StatusSources, now: number = Date.now()): Promise<StatusReport> {
  const { sqs, cloudwatch } = sources;
  const queueUrl = () => needs(sources.queueUrl, "QUEUE_URL");
  const [queue, oldestMessage, dlq, consumers, givenUp, alarms, rules] = await Promise.all([
    part(() => queueCounts(sqs, queueUrl())),
    cloudwatch === undefined
      ? notHere("needs CloudWatch, which the local stack does not have")
      : part(() => oldestMessageOf(cloudwatch, queueUrl(), now)),
    part(() => dlqCountsOf(sqs, needs(sources.dlqUrl, "DLQ_URL"))),
    perConsumer((consumer) =>
      cloudwatch === undefined
        ? localLag(sources, consumer, now)
        : cloudwatchLag(cloudwatch, sources, consumer, now),
    ),
    perConsumer((consumer) =>
      batchesIn(sqs, needs(sources.failureQueueUrls[consumer], CONSUMER_VARIABLES[consumer].failures)),
    ),
    cloudwatch === undefined
      ? notHere("no CloudWatch on the local stack")
      : part(() => stageAlarms(cloudwatch, needs(sources.alarmNames, "REWARDS_ALARM_NAMES", RESTAGE))),
    part(() => rulesInStatus(sources.dynamo, needs(sources.tableName, "TABLE_NAME"))),
  ]);
  const parts: StatusParts = { queue, oldestMessage, dlq, consumers, givenUp, alarms, rules };
  return {
    ...statusVerdictOf(parts),
    at: new Date(now).toISOString(),
    target: cloudwatch === undefined ? "local" : "aws",
    stage: sources.stage ?? null,
    ...parts,
  };
}
