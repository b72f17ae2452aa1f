import type { StreamBatchFailure } from "@rewards/core";

/** What a replay read back of a given-up batch's range. */
export interface RecordsFound {
  /** Records of the range the mapping's filter passes: what the function is handed. */
  handed: number;
  /** Every record of the range, the filtered ones too. */
  inRange: number;
}

/** `2 missing`, `1 more than it held`: a count against the batch's. */
const difference = (count: number, batchSize: number): string =>
  count < batchSize ? `${batchSize - count} missing` : `${count - batchSize} more than it held`;

/**
 * Pure: why the records read back are not the given-up batch, or undefined when they are.
 * AWS does not say whether a failure record's `batchSize` counts the records the mapping's
 * filter passed or every record of its sequence range (docs/local-stack.md, "The on-failure
 * record under a filter"), so once the range was read from its start through its end record,
 * either count is the whole batch: the records the filter passes (`handed`, what the local
 * source writes) or every record read (`inRange`). A read that stopped before the range's end
 * is never the whole batch.
 */
export function missingRecords(
  batch: StreamBatchFailure["DDBStreamBatchInfo"],
  found: RecordsFound,
  reachedEnd: boolean,
  pastTheStream: string,
): string | undefined {
  const { handed, inRange } = found;
  const { batchSize } = batch;
  if (reachedEnd && (handed === batchSize || inRange === batchSize)) return undefined;
  const kept = `(kept; run again later, or ${pastTheStream})`;
  const counted = `found ${handed} of the batch's ${batchSize} records`;
  if (!reachedEnd)
    return `${counted} from sequence number ${batch.startSequenceNumber}; the stream ended before ${batch.endSequenceNumber}: ${
      handed === batchSize ? "its last record not reached" : difference(handed, batchSize)
    } ${kept}`;
  const where = `between sequence numbers ${batch.startSequenceNumber} and ${batch.endSequenceNumber}`;
  if (inRange === handed) return `${counted} ${where}: ${difference(handed, batchSize)} ${kept}`;
  return `${counted} ${where} (${inRange} records read, ${inRange - handed} filtered out): ${difference(
    handed,
    batchSize,
  )}, or ${difference(inRange, batchSize)} counting every record read ${kept}`;
}
