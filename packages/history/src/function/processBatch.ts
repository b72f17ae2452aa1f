import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { historyItemOf, historyPutOf, userOfKey } from "@rewards/core";
import {
  type AwsCall,
  callField,
  describeError,
  embeddedMetrics,
  isConditionFailure,
  readGuardRecord,
} from "@rewards/core/aws";
import { DEFAULT_BOARD_WEEKS, resources } from "@rewards/core/deploy";
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import pLimit from "p-limit";
import type { HistoryDeps } from "./historyDeps";
import { type ItemOutcome, progressPlan } from "./progressPlan";
import { type StandingItem, weekFactsOf, writeBoard } from "./writeBoard";
import { writeProgress } from "./writeProgress";

export interface BatchCounts {
  /** History items put. */
  written: number;
  /** Acknowledged, nothing written: not a guard write, or an older image after a revocation. */
  skipped: number;
  /** Reported in batchItemFailures, so retried from the first of them. */
  failed: number;
  /** Achievement items put (docs/reading.md#achievements). */
  achieved: number;
  /** Week items put (docs/board.md): one per reader and week the batch touched. */
  boarded: number;
}

export interface RecordFailure {
  sequenceNumber: string;
  reason: string;
  /** The SDK call that failed (a put's), as fields: service, operation, resource, endpoint. */
  call?: AwsCall;
}

export interface BatchResult {
  counts: BatchCounts;
  /** Readers whose achievements wait for their history to hold every award their profile does (logged, not a metric). */
  deferred: number;
  failures: RecordFailure[];
  startedAt: number;
  durationMs: number;
}

/** What became of one record. */
type Outcome =
  | { kind: "written" }
  | { kind: "skipped" }
  | { kind: "unreadable"; reason: string }
  | { kind: "failed"; reason: string; call?: AwsCall }
  /** Not attempted: an earlier record of its item key failed. */
  | { kind: "behind"; reason: string };

const sequenceNumberOf = (record: DynamoDBRecord): string => record.dynamodb?.SequenceNumber ?? "";

/**
 * The whole history writer: every guard INSERT/MODIFY's new image (0 XP included) becomes one
 * history item, put with historyPutOf's rule. A failed condition is an older image after a
 * revocation: acknowledged, counted skipped. An unreadable image is reported. A put that fails
 * otherwise is reported with every later record of the batch (stream order), so nothing after
 * it is acknowledged ahead of it. Records of one item key go in stream order, one at a time;
 * different keys go at once, at most `concurrency`. Then each reader's progress: kept days and
 * achievements (writeProgress); a reader whose progress fails holds back their first record.
 */
export async function processBatch(
  deps: HistoryDeps,
  event: DynamoDBStreamEvent,
  _context?: Partial<Context>,
): Promise<BatchResult & { response: DynamoDBBatchResponse }> {
  const clock = deps.clock ?? Date.now;
  const startedAt = clock();
  const records = event.Records ?? [];
  const outcomes: Outcome[] = records.map(() => ({ kind: "skipped" }));
  const groups = new Map<string, Array<{ index: number; put: ReturnType<typeof historyPutOf> }>>();
  const puts = new Map<number, ReturnType<typeof historyPutOf>>();
  records.forEach((record, index) => {
    const read = readGuardRecord(record);
    if (read.kind === "other") return;
    if (read.kind === "unreadable") {
      outcomes[index] = { kind: "unreadable", reason: read.reason };
      return;
    }
    const put = historyPutOf(historyItemOf(read.guard, { historyDays: deps.historyDays }), deps.tableName);
    const key = `${put.Item.pk}\u0000${put.Item.sk}`;
    const group = groups.get(key) ?? [];
    group.push({ index, put });
    groups.set(key, group);
    puts.set(index, put);
  });

  const limit = pLimit(deps.concurrency ?? resources.history.concurrency);
  await Promise.all(
    [...groups.values()].map((group) =>
      limit(async () => {
        for (const [position, { index, put }] of group.entries()) {
          try {
            await deps.dynamo.send(new PutCommand(put));
            outcomes[index] = { kind: "written" };
          } catch (error) {
            if (isConditionFailure(error)) {
              outcomes[index] = { kind: "skipped" };
              continue;
            }
            outcomes[index] = { kind: "failed", reason: describeError(error), ...callField(error) };
            for (const later of group.slice(position + 1))
              outcomes[later.index] = { kind: "behind", reason: "an earlier record of its item failed" };
            return;
          }
        }
      }),
    ),
  );

  const { achieved, deferred } = await writeProgressOf(deps, outcomes, puts, limit);
  const boarded = await writeBoardOf(deps, outcomes, puts, limit);

  // A failed put holds back every later record of the batch: Lambda retries from the lowest
  // sequence number reported, and reporting the later ones too keeps that true however the
  // response is read.
  const firstFailed = outcomes.findIndex((outcome) => outcome.kind === "failed");
  const counts: BatchCounts = { written: 0, skipped: 0, failed: 0, achieved, boarded };
  const failures: RecordFailure[] = [];
  outcomes.forEach((outcome, index) => {
    const record = records[index] as DynamoDBRecord;
    const held = firstFailed !== -1 && index > firstFailed;
    if (outcome.kind === "unreadable" || outcome.kind === "failed" || outcome.kind === "behind" || held) {
      counts.failed++;
      const reason =
        outcome.kind === "unreadable" || outcome.kind === "failed" || outcome.kind === "behind"
          ? outcome.reason
          : "behind a record that failed";
      const call = outcome.kind === "failed" ? outcome.call : undefined;
      failures.push({
        sequenceNumber: sequenceNumberOf(record),
        reason,
        ...(call === undefined ? {} : { call }),
      });
    } else counts[outcome.kind]++;
  });
  const result: BatchResult = { counts, deferred, failures, startedAt, durationMs: clock() - startedAt };
  return { ...result, response: reportBatch(deps, result) };
}

/**
 * Every reader's progress after the batch's puts, from the items that stand as written or were
 * overtaken by a revocation (records that failed, or sit behind one, are retried with their
 * reader's progress). A reader whose progress fails marks their first record failed.
 */
async function writeProgressOf(
  deps: HistoryDeps,
  outcomes: Outcome[],
  puts: ReadonlyMap<number, ReturnType<typeof historyPutOf>>,
  limit: ReturnType<typeof pLimit>,
): Promise<{ achieved: number; deferred: number }> {
  const firstFailed = outcomes.findIndex((outcome) => outcome.kind === "failed");
  const settled: Array<ItemOutcome & { index: number }> = [];
  outcomes.forEach((outcome, index) => {
    const put = puts.get(index);
    if (
      put &&
      (outcome.kind === "written" || outcome.kind === "skipped") &&
      (firstFailed === -1 || index < firstFailed)
    )
      settled.push({ index, item: put.Item, outcome: outcome.kind });
  });
  const { achieved, deferred, failed } = await writeProgress(deps, progressPlan(settled), limit);
  for (const [userId, { reason, call }] of failed) {
    const first = settled.find(({ item }) => userOfKey(item.pk) === userId);
    if (first)
      outcomes[first.index] = {
        kind: "failed",
        reason: `progress: ${reason}`,
        ...(call === undefined ? {} : { call }),
      };
  }
  return { achieved, deferred };
}

/**
 * Every standing history item of the batch applied to its reader's week (writeBoard), wherever it
 * sits in the batch: a week takes each award and revocation once, so items that are retried later
 * change nothing then. A reader whose week fails marks their first record failed.
 */
async function writeBoardOf(
  deps: HistoryDeps,
  outcomes: Outcome[],
  puts: ReadonlyMap<number, ReturnType<typeof historyPutOf>>,
  limit: ReturnType<typeof pLimit>,
): Promise<number> {
  const standing: Array<{ index: number; item: StandingItem }> = [];
  outcomes.forEach((outcome, index) => {
    const put = puts.get(index);
    if (put && (outcome.kind === "written" || outcome.kind === "skipped"))
      standing.push({ index, item: { ...put.Item, overtaken: outcome.kind === "skipped" } });
  });
  const facts = weekFactsOf(
    standing.map(({ item }) => item),
    (deps.clock ?? Date.now)(),
    deps.boardWeeks ?? DEFAULT_BOARD_WEEKS,
  );
  const { weeks: written, failed } = await writeBoard(deps, facts, limit);
  for (const [userId, { reason, call }] of failed) {
    const first = standing.find(({ item }) => userOfKey(item.pk) === userId);
    if (first)
      outcomes[first.index] = {
        kind: "failed",
        reason: `board: ${reason}`,
        ...(call === undefined ? {} : { call }),
      };
  }
  return written;
}

/** A `warn` line per failure, one `info` and one EMF line per batch. */
function reportBatch(deps: HistoryDeps, result: BatchResult): DynamoDBBatchResponse {
  for (const failure of result.failures) deps.logger.warn(failure, "not written; the record will be retried");
  deps.logger.info({ ...result.counts, deferred: result.deferred, durationMs: result.durationMs }, "batch");
  (deps.emitMetrics ?? ((line: string) => process.stdout.write(`${line}\n`)))(
    embeddedMetrics(
      { service: "rewards-history", stage: deps.stage },
      { ...result.counts },
      result.durationMs,
      result.startedAt,
    ),
  );
  return {
    batchItemFailures: result.failures.map((failure) => ({ itemIdentifier: failure.sequenceNumber })),
  };
}
