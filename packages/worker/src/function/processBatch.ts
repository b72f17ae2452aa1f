import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { reportBatch } from "./reportBatch";
import { type BatchResult, runBatch } from "./runBatch";
import type { WorkerDeps } from "./workerDeps";

/**
 * The whole worker: run the batch, then report it (logs, metrics, the partial batch
 * response that lists only `failed` messages). Never throws for a per-message problem.
 */
export async function processBatch(
  deps: WorkerDeps,
  event: SQSEvent,
  context?: Partial<Context>,
): Promise<BatchResult & { response: SQSBatchResponse }> {
  const batch = await runBatch(deps, event, context);
  return { ...batch, response: reportBatch(deps, batch) };
}
