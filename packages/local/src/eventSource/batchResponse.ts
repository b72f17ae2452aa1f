import type { SQSBatchResponse, SQSRecord } from "aws-lambda";

export type Acknowledgement =
  | { wholeBatchFailed: false; acknowledged: SQSRecord[]; failed: SQSRecord[] }
  | { wholeBatchFailed: true; reason: string };

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
        wholeBatchFailed: true,
        reason: `invalid itemIdentifier ${JSON.stringify(id)} in batchItemFailures`,
      };
    }
    failed.add(id);
  }
  return {
    wholeBatchFailed: false,
    acknowledged: records.filter((record) => !failed.has(record.messageId)),
    failed: records.filter((record) => failed.has(record.messageId)),
  };
}
