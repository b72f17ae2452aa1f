import { setTimeout as delay } from "node:timers/promises";
import type { DynamoDBRecord } from "aws-lambda";
import { type BatchDelivery, deliverStreamBatch } from "./deliverStreamBatch";
import { invokeStreamHandler } from "./invokeStreamHandler";
import { onFailureDestination } from "./onFailureDestination";
import { ShardProgress } from "./shardProgress";
import { readShard } from "./shardReader";
import { discoverShards } from "./streamShards";
import { type Stopping, type StreamSourceOptions, streamSourceSettings } from "./streamSourceOptions";

export type { StreamBatchSummary, StreamHandler, StreamSourceOptions } from "./streamSourceOptions";

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

/**
 * A local DynamoDB stream event source mapping with Lambda's rules for streams: each shard
 * read in order, one batch at a time; a parent shard finished before its children; filtered
 * records never delivered; a batch retried from the lowest sequence number the function
 * reports (or whole, or bisected, when the invocation fails); the checkpoint moved only past
 * what succeeded or was given up; a batch given up after `maximumRetryAttempts` (or too old)
 * goes to the on-failure destination as Lambda describes it, and the shard moves on.
 */
export async function startStreamSource(options: StreamSourceOptions): Promise<StreamSource> {
  const settings = streamSourceSettings(options);
  const aborter = new AbortController();
  const { signal } = aborter;
  const stopping: Stopping = { signal, sleep: (ms) => delay(ms, undefined, { signal }).catch(() => {}) };
  const destination = onFailureDestination(settings, stopping);
  const delivery: BatchDelivery = {
    settings,
    stopping,
    invoke: (shardId: string, records: DynamoDBRecord[]) => invokeStreamHandler(settings, shardId, records),
    giveUp: destination.giveUp,
  };
  const progress = new ShardProgress();
  const discovery = discoverShards(settings, stopping, progress, (shardId) =>
    readShard(settings, stopping, progress, shardId, (id, records) =>
      deliverStreamBatch(delivery, id, records),
    ),
  );
  const done = discovery.then(() => progress.ended());
  return {
    done,
    caughtUp: (since = 0) => progress.caughtUp(since),
    get givenUp() {
      return destination.givenUp;
    },
    stop: async () => {
      aborter.abort();
      await done;
    },
  };
}
