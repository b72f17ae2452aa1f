// The Lambda function: decode, plan, award, park, report. (`handler` itself is not
// re-exported: importing it builds clients from process.env. It is `@rewards/worker/handler`.)
export { createHandler, type SqsBatchHandler } from "./function/createHandler";
export { createWorkerDeps } from "./function/createWorkerDeps";
export type { MessageResult, Outcome } from "./function/outcome";
export { processBatch } from "./function/processBatch";
export type { BatchResult } from "./function/runBatch";
export type { WorkerDeps } from "./function/workerDeps";
