import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { createWorkerDeps, WORKER_ENV } from "./createWorkerDeps";
import { processBatch } from "./processBatch";
import type { WorkerDeps } from "./workerDeps";

/**
 * Clients and config are built on the first invocation and kept for the container's life.
 * They are rebuilt only if the environment they came from changes, which happens in
 * tests and local tools, never on Lambda.
 */
let cached: { fingerprint: string; deps: WorkerDeps } | undefined;

function currentDeps(): WorkerDeps {
  const fingerprint = WORKER_ENV.map((name) => process.env[name] ?? "").join("\u0000");
  if (cached?.fingerprint !== fingerprint) {
    cached = { fingerprint, deps: createWorkerDeps(process.env) };
  }
  return cached.deps;
}

/** The Lambda entry point (SQS event source with ReportBatchItemFailures). */
export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  return (await processBatch(currentDeps(), event, context)).response;
}
