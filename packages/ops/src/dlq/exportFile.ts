import { open } from "node:fs/promises";
import { OperationError } from "../operationError";
import type { ExportedMessage } from "./filteredPurge";

export interface ExportFile {
  /** Appends the messages, a JSON line each, and resolves once they are on the disk (fsync). */
  write(messages: readonly ExportedMessage[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * A new NDJSON file for `dlq purge --export`. Never an existing one: an earlier export may be
 * the one copy of messages purged since, so opening one is refused (before anything is read).
 */
export async function openExport(path: string): Promise<ExportFile> {
  const file = await open(path, "wx").catch((error: NodeJS.ErrnoException) => {
    throw new OperationError(
      error.code === "EEXIST"
        ? `--export: ${path} exists; an export is never overwritten (it may be the only copy of messages purged before): name a new file`
        : `--export: cannot create ${path}: ${error.message}`,
    );
  });
  return {
    async write(messages) {
      await file.writeFile(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
      await file.sync();
    },
    close: () => file.close(),
  };
}
