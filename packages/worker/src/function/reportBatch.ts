import { embeddedMetrics } from "@rewards/core/aws";
import type { SQSBatchResponse } from "aws-lambda";
import type { BatchResult } from "./runBatch";
import type { WorkerDeps } from "./workerDeps";

/**
 * What a batch tells the world: a `debug` line per message (an `error` line for a
 * configuration problem), one `info` line and one EMF metrics line per batch, and the
 * partial batch response — only `failed` messages, in input order, which also keeps
 * FIFO's "first failure first" for SQS.
 */
export function reportBatch(
  deps: Pick<WorkerDeps, "logger" | "emitMetrics" | "stage">,
  batch: BatchResult,
): SQSBatchResponse {
  for (const result of batch.results) {
    if (result.cause === "configuration")
      deps.logger.error(result, "configuration problem: fix the deployment");
    else deps.logger.debug(result, "message");
  }
  deps.logger.info({ size: batch.results.length, ...batch.counts, durationMs: batch.durationMs }, "batch");
  (deps.emitMetrics ?? ((line: string) => process.stdout.write(`${line}\n`)))(
    embeddedMetrics(
      { service: "rewards-worker", stage: deps.stage },
      batch.counts,
      batch.durationMs,
      batch.startedAt,
    ),
  );
  return {
    batchItemFailures: batch.results
      .filter((result) => result.outcome === "failed")
      .map((result) => ({ itemIdentifier: result.messageId })),
  };
}
