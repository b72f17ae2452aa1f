import type { SQSBatchResponse, SQSRecord } from "aws-lambda";

export type Acknowledgement =
  /** Read item by item, as a partial batch response (`failed` may be empty). */
  | { kind: "partial"; acknowledged: SQSRecord[]; failed: SQSRecord[] }
  | { kind: "wholeBatchFailed"; reason: string };

/**
 * Lambda's reading of a partial batch response: no response (or an empty list) means all
 * succeeded; an identifier that is empty or names no message of the batch makes the
 * WHOLE batch count as failed, as does a thrown error or a timeout (decided by the caller).
 */
export function acknowledge(
  records: readonly SQSRecord[],
  // biome-ignore lint/suspicious/noConfusingVoidType: a Lambda handler may legitimately return nothing
  response: SQSBatchResponse | void,
): Acknowledgement {
  const failures = response?.batchItemFailures ?? [];
  const ids = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const failure of failures) {
    const id = failure?.itemIdentifier;
    if (typeof id !== "string" || id === "" || !ids.has(id)) {
      return {
        kind: "wholeBatchFailed",
        reason: `invalid itemIdentifier ${JSON.stringify(id)} in batchItemFailures`,
      };
    }
    failed.add(id);
  }
  return {
    kind: "partial",
    acknowledged: records.filter((record) => !failed.has(record.messageId)),
    failed: records.filter((record) => failed.has(record.messageId)),
  };
}
