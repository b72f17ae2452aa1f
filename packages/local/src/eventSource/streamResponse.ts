import type { DynamoDBBatchResponse, DynamoDBRecord } from "aws-lambda";

export type StreamVerdict =
  | { kind: "succeeded" }
  /** Checkpoint before this record and retry the batch from it on (Lambda's rule for streams). */
  | { kind: "retryFrom"; sequenceNumber: string }
  | { kind: "wholeBatchFailed"; reason: string };

/** Sequence numbers are decimal strings longer than a double holds. */
export const bySequence = (a: string, b: string): number => {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
};

/**
 * Lambda's reading of a stream function's partial batch response: none (or an empty list)
 * means all succeeded; otherwise the batch is retried from the LOWEST sequence number
 * reported. An identifier that is empty or names no record of the batch fails the whole
 * batch, as does a thrown error or a timeout (decided by the caller).
 */
export function readStreamResponse(
  invoked: readonly DynamoDBRecord[],
  // biome-ignore lint/suspicious/noConfusingVoidType: a Lambda handler may legitimately return nothing
  response: DynamoDBBatchResponse | void,
): StreamVerdict {
  const failures = response?.batchItemFailures ?? [];
  if (failures.length === 0) return { kind: "succeeded" };
  const known = new Set(invoked.map((record) => record.dynamodb?.SequenceNumber));
  const reported: string[] = [];
  for (const failure of failures) {
    const id = failure?.itemIdentifier;
    if (typeof id !== "string" || id === "" || !known.has(id))
      return {
        kind: "wholeBatchFailed",
        reason: `invalid itemIdentifier ${JSON.stringify(id)} in batchItemFailures`,
      };
    reported.push(id);
  }
  return { kind: "retryFrom", sequenceNumber: reported.sort(bySequence)[0] as string };
}
