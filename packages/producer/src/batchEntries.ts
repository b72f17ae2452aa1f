import { type Attributes, MAX_BATCH_ENTRIES, MAX_MESSAGE_BYTES, messageSize } from "@rewards/core";

export interface Entry {
  /** Position in the caller's input, which is also the batch entry id. */
  index: number;
  body: string;
  attributes: Attributes;
}

/** Greedy chunks of at most 10 entries and 1 MiB (SQS's limits on one batch), in input order. */
export function chunkEntries(entries: readonly Entry[]): Entry[][] {
  const chunks: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = messageSize(entry.body, entry.attributes);
    if (current.length === MAX_BATCH_ENTRIES || (current.length > 0 && bytes + size > MAX_MESSAGE_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
