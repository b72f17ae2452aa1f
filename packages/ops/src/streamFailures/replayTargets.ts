import { type AnnouncerDeps, processBatch as announceBatch, isAnnouncerCandidate } from "@rewards/announcer";
import { type HistoryDeps, isHistoryCandidate, processBatch as writeHistoryBatch } from "@rewards/history";
import type { DynamoDBRecord } from "aws-lambda";
import type { StreamReplayTarget } from "./replayStreamFailures";

/**
 * A stream function as a replay feeds it: its mapping's filters (guard INSERTs and MODIFYs,
 * awards and revocations; for the announcer, achievements' INSERTs too) and its own
 * processBatch, so a replayed record does exactly what the function would have. Its metrics are not emitted: a replay's stdout is its
 * report (and the function's metrics are Lambda's).
 */
function functionTarget<Deps extends { emitMetrics?: (line: string) => void }, Counts>(
  deps: Deps,
  filter: (record: DynamoDBRecord) => boolean,
  processBatch: (
    deps: Deps,
    event: { Records: DynamoDBRecord[] },
  ) => Promise<{ counts: Counts; failures: readonly { reason: string }[] }>,
  doneOf: (counts: Counts) => number,
  pastTheStream: string,
): StreamReplayTarget {
  const quiet: Deps = { ...deps, emitMetrics: () => {} };
  return {
    filter,
    run: async (records) => {
      const { counts, failures } = await processBatch(quiet, { Records: records });
      return { done: doneOf(counts), failures };
    },
    pastTheStream,
  };
}

/** The announcer: done is published (each announcement keeps its id, so a replay is harmless). */
export const announcerReplayTarget = (deps: AnnouncerDeps): StreamReplayTarget =>
  functionTarget(
    deps,
    isAnnouncerCandidate,
    announceBatch,
    (counts) => counts.announced,
    "republish from the table",
  );

/**
 * The history's writer: done is an item as its guard's image says, put or left revoked (a
 * record always writes the same item, and an older image never undoes a revocation).
 */
export const historyReplayTarget = (deps: HistoryDeps): StreamReplayTarget =>
  functionTarget(
    deps,
    isHistoryCandidate,
    writeHistoryBatch,
    (counts) => counts.written + counts.skipped,
    "rebuild the users' history from the guards (`rewards history rebuild`)",
  );
