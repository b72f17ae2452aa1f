import { readFile, rename, writeFile } from "node:fs/promises";
import { z } from "zod";

/**
 * Where a stream source remembers, per shard, the last sequence number it is done with.
 * Lambda keeps this for an event source mapping; locally it lives in memory, or in a file
 * so a restarted `rewards announcer` resumes where the killed one left off.
 */
export interface Checkpoints {
  get(shardId: string): Promise<string | undefined>;
  set(shardId: string, sequenceNumber: string): Promise<void>;
}

export function memoryCheckpoints(): Checkpoints {
  const positions = new Map<string, string>();
  return {
    get: async (shardId) => positions.get(shardId),
    set: async (shardId, sequenceNumber) => {
      positions.set(shardId, sequenceNumber);
    },
  };
}

/** A checkpoint file: the stream it is of, and per shard the last sequence number done with. */
const checkpointFileSchema = z.object({
  streamArn: z.string(),
  shards: z.record(z.string(), z.string()),
});

export type CheckpointFile = z.output<typeof checkpointFileSchema>;

/**
 * What a checkpoint file holds: undefined when there is none yet (no batch done), or when it
 * is not one (then a source starts afresh, as with none). Anything else unreadable throws.
 * `rewards status` reads a local consumer's place with it, as the source itself does.
 */
export async function savedCheckpoints(path: string): Promise<CheckpointFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const parsed = checkpointFileSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Checkpoints in a JSON file, written whole to a temporary file and renamed over the old
 * one, so a process killed mid-write leaves the previous checkpoint, never half of one. A
 * file written for another stream (a stack started since) is ignored.
 */
export async function fileCheckpoints(path: string, streamArn: string): Promise<Checkpoints> {
  const saved = await savedCheckpoints(path);
  let shards: Record<string, string> = saved?.streamArn === streamArn ? { ...saved.shards } : {};
  let writing = Promise.resolve();
  return {
    get: async (shardId) => shards[shardId],
    set: (shardId, sequenceNumber) => {
      shards = { ...shards, [shardId]: sequenceNumber };
      const content = JSON.stringify({ streamArn, shards } satisfies CheckpointFile);
      writing = writing.then(async () => {
        await writeFile(`${path}.tmp`, content);
        await rename(`${path}.tmp`, path);
      });
      return writing;
    },
  };
}
