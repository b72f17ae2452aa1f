import type { SQSClient } from "@aws-sdk/client-sqs";
import { type ParkedMessage, readParkedMessage } from "@rewards/core";
import { type QueueCounts, queueCounts } from "../queues/queueCounts";
import { holdMessages, release, releaseReported } from "./heldMessages";
import { matches, type ReplayFilter } from "./replayFilter";
import { replayVerdictOf, tallyVerdicts, type VerdictContext, type VerdictCounts } from "./replayVerdict";

export interface DlqPeek {
  parked: ParkedMessage[];
  /** Held messages not made visible again at once (they are when their hold ends): nothing is lost. */
  notReleased?: string | undefined;
}

/**
 * Reads up to `max` parked messages matching `filter` without consuming them: everything is
 * held while read (to read each once), then released at once. Nothing is ever deleted; a
 * failed release is reported with what was read, not thrown.
 */
export async function peekDlq(
  sqs: SQSClient,
  dlqUrl: string,
  max: number,
  filter: ReplayFilter = {},
): Promise<DlqPeek> {
  const filtered = filter.type !== undefined || filter.error !== undefined || filter.user !== undefined;
  const held = await holdMessages(sqs, dlqUrl, filtered ? (await queueCounts(sqs, dlqUrl)).visible : max, 30);
  const notReleased = await releaseReported(sqs, dlqUrl, held);
  const parked = held
    .map(readParkedMessage)
    .filter((message) => matches(message, filter))
    .slice(0, max);
  return notReleased === undefined ? { parked } : { parked, notReleased };
}

export interface DlqStats extends QueueCounts {
  /** Messages read for the breakdown (at most the sample size), and the distinct source messages among them. */
  sampled: number;
  distinct: number;
  byError: Record<string, number>;
  byType: Record<string, number>;
  /** What replaying each distinct message would do now. */
  byVerdict: VerdictCounts;
}

/** How many times each value occurs. */
export const tally = (values: readonly string[]) =>
  values.reduce<Record<string, number>>((counts, value) => {
    counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }, {});

/**
 * Counts, and a non-destructive breakdown of up to `sample` messages: distinct source
 * messages (a worker killed between its DLQ send and its delete parks a message twice), by
 * `rewards.error`, by event type, and by what a replay would do now. Breakdowns count
 * distinct messages.
 */
export async function dlqStats(
  sqs: SQSClient,
  dlqUrl: string,
  sample: number,
  judge: VerdictContext,
): Promise<DlqStats> {
  const { parked, ...counts } = await sampleDlq(sqs, dlqUrl, sample);
  const bySource = new Map(parked.map((p) => [p.sourceMessageId, p]));
  const distinct = [...bySource.values()];
  const judged = await replayVerdictOf(distinct, judge.dynamo, judge.tableName, judge.now, judge.dailyCap);
  return {
    ...counts,
    sampled: parked.length,
    distinct: distinct.length,
    byError: tally(distinct.map((p) => p.error)),
    byType: tally(distinct.map((p) => p.type ?? "(unknown)")),
    byVerdict: tallyVerdicts(judged.values(), judge.dailyCap !== undefined),
  };
}

export interface DlqSample extends QueueCounts {
  /** Every copy read (at most the sample), as parked: what `dlq stats` and `rewards status` break down. */
  parked: ParkedMessage[];
}

/**
 * The DLQ's counts, and up to `sample` of its messages read without consuming any: each is
 * held while read (so none is read twice) and released at once. A release that fails throws
 * (those reappear when their 30 s hold ends): nothing is lost, and the caller says so.
 */
export async function sampleDlq(sqs: SQSClient, dlqUrl: string, sample: number): Promise<DlqSample> {
  const counts = await queueCounts(sqs, dlqUrl);
  const held = await holdMessages(sqs, dlqUrl, sample, 30);
  await release(sqs, dlqUrl, held);
  return { ...counts, parked: held.map(readParkedMessage) };
}
