import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface StreamCheckpointFiles {
  /** The two files' paths, as `rewards dev` prints them. */
  env: { ANNOUNCER_CHECKPOINT_FILE: string; HISTORY_CHECKPOINT_FILE: string };
  /** Removes them (and their folder): a stack's stream, and so its places, end with it. */
  remove(): Promise<void>;
}

/**
 * Where `rewards dev`'s announcer and history's writer keep their places in the stream: two
 * files in a fresh folder under the system's temporary one. In memory, no other process could
 * tell how far behind they are; in files, `rewards status` reads them, and a `rewards announcer`
 * or `rewards history` run beside a `dev --no-announcer` / `--no-history` keeps its place there
 * too. A file is written when its function is done with its first batch: until then, none.
 */
export async function streamCheckpointFiles(): Promise<StreamCheckpointFiles> {
  const folder = await mkdtemp(join(tmpdir(), "rewards-dev-"));
  return {
    env: {
      ANNOUNCER_CHECKPOINT_FILE: join(folder, "announcer-checkpoint.json"),
      HISTORY_CHECKPOINT_FILE: join(folder, "history-checkpoint.json"),
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
