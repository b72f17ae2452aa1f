import { readFile, rename, writeFile } from "node:fs/promises";

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

interface CheckpointFile {
  streamArn: string;
  shards: Record<string, string>;
}

/**
 * Checkpoints in a JSON file, written whole to a temporary file and renamed over the old
 * one, so a process killed mid-write leaves the previous checkpoint, never half of one. A
 * file written for another stream (a stack started since) is ignored.
 */
export async function fileCheckpoints(path: string, streamArn: string): Promise<Checkpoints> {
  let shards: Record<string, string> = {};
  try {
    const saved = JSON.parse(await readFile(path, "utf8")) as Partial<CheckpointFile>;
    if (saved.streamArn === streamArn && saved.shards) shards = { ...saved.shards };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
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
