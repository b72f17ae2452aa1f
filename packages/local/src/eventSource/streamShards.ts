import { DescribeStreamCommand, type Shard } from "@aws-sdk/client-dynamodb-streams";
import { describeError } from "@rewards/core/aws";
import type { ShardProgress } from "./shardProgress";
import type { Stopping, StreamSourceSettings } from "./streamSourceOptions";

/** Every shard the stream lists, page after page. */
async function describeShards(
  { streams, streamArn }: Pick<StreamSourceSettings, "streams" | "streamArn">,
  signal: AbortSignal,
): Promise<Shard[]> {
  const shards: Shard[] = [];
  let start: string | undefined;
  do {
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({
        StreamArn: streamArn,
        ...(start ? { ExclusiveStartShardId: start } : {}),
      }),
      { abortSignal: signal },
    );
    shards.push(...(StreamDescription?.Shards ?? []));
    start = StreamDescription?.LastEvaluatedShardId;
  } while (start);
  return shards;
}

/** Starts every shard whose parent is finished (or unknown: trimmed away); again every few seconds. */
export async function discoverShards(
  settings: Pick<StreamSourceSettings, "streams" | "streamArn" | "logger">,
  { signal, sleep }: Stopping,
  progress: ShardProgress,
  read: (shardId: string) => Promise<void>,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const shards = await describeShards(settings, signal);
      const known = new Set(shards.map((shard) => shard.ShardId));
      for (const shard of shards) {
        const id = shard.ShardId as string;
        const parent = shard.ParentShardId;
        if (progress.isStarted(id) || (parent && known.has(parent) && !progress.isFinished(parent))) continue;
        progress.start(id, read(id));
      }
    } catch (error) {
      if (signal.aborted) break;
      settings.logger.warn({ err: describeError(error) }, "describing the stream failed; retrying");
    }
    await sleep(2000);
  }
}
