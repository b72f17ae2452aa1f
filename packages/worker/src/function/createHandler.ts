import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { processBatch } from "./processBatch";
import type { WorkerDeps } from "./workerDeps";

export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/** A Lambda handler (SQS event source with ReportBatchItemFailures) over fixed dependencies. */
export function createHandler(deps: WorkerDeps): SqsBatchHandler {
  return async (event, context) => (await processBatch(deps, event, context)).response;
}
