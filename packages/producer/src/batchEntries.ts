import type { MessageAttributeValue } from "@aws-sdk/client-sqs";

/** SQS limits today: 10 entries a batch, 1 MiB a message and a whole batch. */
export const MAX_BATCH_ENTRIES = 10;
export const MAX_PAYLOAD_BYTES = 1_048_576;

export interface Entry {
  /** Position in the caller's input, which is also the batch entry id. */
  index: number;
  body: string;
  attributes: Record<string, MessageAttributeValue>;
}

/** What SQS counts toward the size limit: the body and each attribute's name, type and value. */
export function entryBytes(entry: Pick<Entry, "body" | "attributes">): number {
  let bytes = Buffer.byteLength(entry.body, "utf8");
  for (const [name, value] of Object.entries(entry.attributes)) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? "");
    bytes += Buffer.byteLength(value.StringValue ?? "") + (value.BinaryValue?.byteLength ?? 0);
  }
  return bytes;
}

/** Greedy chunks of at most 10 entries and 1 MiB, in input order. */
export function chunkEntries(entries: readonly Entry[]): Entry[][] {
  const chunks: Entry[][] = [];
  let current: Entry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entryBytes(entry);
    if (current.length === MAX_BATCH_ENTRIES || (current.length > 0 && bytes + size > MAX_PAYLOAD_BYTES)) {
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
