import type { Announcement } from "@rewards/core";
import { type AwsCall, embeddedMetrics, invocationDeadline, remainingMsOf } from "@rewards/core/aws";
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import type { AnnouncerDeps } from "./announcerDeps";
import { publishGrants, type Unpublished } from "./publishGrants";
import { type ReadStreamRecord, readStreamRecord } from "./readStreamRecord";

export interface BatchCounts {
  /** Announcements published to the bus: awards, revocations, achievements. */
  announced: number;
  /** Records that announce nothing (a profile, a 0-XP award, a REMOVE): acknowledged, nothing published. */
  skipped: number;
  /** Announcements not published and images that cannot be read: reported, so retried. */
  failed: number;
}

export interface RecordFailure {
  sequenceNumber: string;
  reason: string;
  /** The deployment is at fault (a missing bus, denied access): logged as an error. */
  configuration: boolean;
  /** The SDK call that failed, as fields: service, operation, resource, endpoint. */
  call?: AwsCall;
}

export interface BatchResult {
  counts: BatchCounts;
  /** What was published, in stream order. */
  published: Announcement[];
  failures: RecordFailure[];
  /** The clock's reading when the batch started, and how long it ran. */
  startedAt: number;
  durationMs: number;
}

/**
 * Lambda's rule for streams: the item identifier is the record's sequence number, and the
 * batch is retried from the lowest one reported. A record without one reports "", which
 * Lambda treats as the whole batch failing — the safe side.
 */
const sequenceNumberOf = (record: DynamoDBRecord): string =>
  // Stryker disable next-line OptionalChaining: only guard and achievement records are ever reported, and they have dynamodb (their Keys)
  record.dynamodb?.SequenceNumber ?? "";

/**
 * The whole announcer: read each record, publish every announcement (in stream order, at most
 * 10 a call), and report each one that was not published, and each guard or achievement image
 * it cannot read, in `batchItemFailures`. An announcement is published or reported, never neither.
 */
export async function processBatch(
  deps: AnnouncerDeps,
  event: DynamoDBStreamEvent,
  context?: Partial<Context>,
): Promise<BatchResult & { response: DynamoDBBatchResponse }> {
  const clock = deps.clock ?? Date.now;
  const startedAt = clock();
  const deadline = invocationDeadline(startedAt, remainingMsOf(context), deps.safetyMarginMs);
  const records: ReadStreamRecord[] = (event.Records ?? []).map(readStreamRecord);
  const announcements = records.flatMap((item, index) =>
    item.kind === "announce" ? [{ key: String(index), grant: item.announcement }] : [],
  );
  // publishGrants never throws; if it somehow did, the invocation would fail and Lambda
  // retry the whole batch — still published or retried, never neither.
  const unpublished = await publishGrants(
    { client: deps.eventBridge, busName: deps.busName, clock, retryPolicy: deps.retryPolicy },
    announcements,
    deadline,
  );

  const counts: BatchCounts = { announced: 0, skipped: 0, failed: 0 };
  const published: Announcement[] = [];
  const failures: RecordFailure[] = [];
  const fail = (record: DynamoDBRecord, failure: Unpublished) => {
    counts.failed++;
    failures.push({ sequenceNumber: sequenceNumberOf(record), ...failure });
  };
  records.forEach((item, index) => {
    if (item.kind === "skip") counts.skipped++;
    else if (item.kind === "unreadable") fail(item.record, { reason: item.reason, configuration: false });
    else {
      const failure = unpublished.get(String(index));
      if (failure) fail(item.record, failure);
      else {
        counts.announced++;
        published.push(item.announcement);
      }
    }
  });
  const result: BatchResult = { counts, published, failures, startedAt, durationMs: clock() - startedAt };
  return { ...result, response: reportBatch(deps, result) };
}

/** What an `announced` line says of an announcement: its id, and the award's intent or the achievement. */
function subjectOf(announcement: Announcement) {
  const { id, type, data } = announcement;
  return type === "reward.achieved"
    ? { id, userId: data.userId, achievement: data.achievement }
    : { id, intentKey: data.intentKey };
}

/** One `debug` line per announcement, a `warn` line per failure, one `info` and one EMF line per batch. */
function reportBatch(deps: AnnouncerDeps, result: BatchResult): DynamoDBBatchResponse {
  for (const announcement of result.published) deps.logger.debug(subjectOf(announcement), "announced");
  for (const failure of result.failures) {
    if (failure.configuration)
      deps.logger.error(failure, "not announced: configuration problem, fix the deployment");
    else deps.logger.warn(failure, "not announced; the record will be retried");
  }
  deps.logger.info({ ...result.counts, durationMs: result.durationMs }, "batch");
  (deps.emitMetrics ?? ((line: string) => process.stdout.write(`${line}\n`)))(
    embeddedMetrics(
      { service: "rewards-announcer", stage: deps.stage },
      { ...result.counts },
      result.durationMs,
      result.startedAt,
    ),
  );
  return {
    batchItemFailures: result.failures.map((failure) => ({ itemIdentifier: failure.sequenceNumber })),
  };
}
