import { resources } from "@rewards/core/deploy";
import type { LatestMaximum } from "../cloudwatchLatest";

/** The table's stream's two readers (docs/history.md#two-readers-per-shard). */
export type StreamConsumer = "announcer" | "history";

/** How far a stream function is behind the stream, and where that was read. */
export interface ConsumerLag {
  /** The local stream source's checkpoint file against the stream, or Lambda's IteratorAge on AWS. */
  source: "checkpoint" | "cloudwatch";
  /** Records its mapping's filter passes that it is not done with; null on AWS (CloudWatch counts none). */
  recordsBehind: number | null;
  /** The oldest of those, in whole seconds (0: none behind); null when CloudWatch has no datapoint. */
  oldestAgeSeconds: number | null;
  /** What the numbers rest on, where it is not plain: no checkpoint yet, no datapoint. */
  note?: string;
}

/** A record of the stream as the lag counts it. */
export interface StreamEntry {
  shardId: string;
  sequenceNumber: string;
  /** ApproximateCreationDateTime, epoch ms (a record without one counts, but dates nothing). */
  createdAtMs: number | undefined;
  /** Whether the consumer's mapping filter passes it (the function is handed it). */
  handed: boolean;
}

/**
 * Pure: the lag of a consumer whose checkpoint (per shard, the last sequence number it is done
 * with; none: it has done nothing) is `checkpoints`. Behind are the records after a shard's
 * checkpoint that its filter passes: one it filters out is never handed to it, so it is never
 * "behind" on it (the source checkpoints past such records only when the next batch comes).
 * The age is the oldest such record's, as IteratorAge is the age of the oldest one unread.
 */
export function lagOfEntries(
  entries: readonly StreamEntry[],
  checkpoints: Readonly<Record<string, string>>,
  nowMs: number,
): { recordsBehind: number; oldestAgeSeconds: number } {
  let recordsBehind = 0;
  let oldest = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const done = checkpoints[entry.shardId];
    if (!entry.handed || (done !== undefined && BigInt(entry.sequenceNumber) <= BigInt(done))) continue;
    recordsBehind += 1;
    if (entry.createdAtMs !== undefined) oldest = Math.min(oldest, entry.createdAtMs);
  }
  return {
    recordsBehind,
    oldestAgeSeconds: Number.isFinite(oldest) ? Math.max(0, Math.floor((nowMs - oldest) / 1000)) : 0,
  };
}

/**
 * Pure: Lambda's IteratorAge (ms, the latest minute's Maximum) as a lag. No datapoint is no
 * invocation in 10 minutes: nothing to read, or a mapping that is not reading — CloudWatch
 * cannot tell which, so neither is claimed. A failed read is not a lag: it throws, and the
 * part is unknown.
 */
export function lagOfIteratorAge(latest: LatestMaximum): ConsumerLag {
  if (latest.kind === "failed") throw new Error(`CloudWatch: ${latest.reason}`);
  if (latest.kind === "noData")
    return {
      source: "cloudwatch",
      recordsBehind: null,
      oldestAgeSeconds: null,
      note: "no IteratorAge in the last 10 minutes: no invocation (nothing new in the stream, or a mapping not reading)",
    };
  return { source: "cloudwatch", recordsBehind: null, oldestAgeSeconds: Math.floor(latest.value / 1000) };
}

/** The age past which a consumer counts as behind: its alarm's threshold (AnnouncerBehind, HistoryBehind), so status and alarm agree. */
export const BEHIND_AFTER_SECONDS: Record<StreamConsumer, number> = {
  announcer: resources.alarms.iteratorAgeMs / 1000,
  history: resources.alarms.historyIteratorAgeMs / 1000,
};

/** Pure: whether a lag counts as behind (an unknown age does not: the report shows it as such). */
export function isBehind(lag: ConsumerLag, consumer: StreamConsumer): boolean {
  return lag.oldestAgeSeconds !== null && lag.oldestAgeSeconds > BEHIND_AFTER_SECONDS[consumer];
}
