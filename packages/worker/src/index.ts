// The Lambda function: decode, plan, award, park, report.

// The local event source: what Lambda's SQS event source mapping does, on one machine.
// (`handler` itself is not re-exported: importing it builds clients from process.env.)
export { type Acknowledgement, acknowledge } from "./eventSource/batchResponse";
export { lambdaContext } from "./eventSource/lambdaContext";
export { toLambdaRecord } from "./eventSource/lambdaRecord";
export {
  type BatchHandler,
  type BatchSummary,
  type Poller,
  type PollerOptions,
  PollerOptionsError,
  startPoller,
} from "./eventSource/poller";
export { createHandler, type SqsBatchHandler } from "./function/createHandler";
export { createWorkerDeps } from "./function/createWorkerDeps";
export {
  type Attributes,
  buildDlqMessage,
  type DlqMessage,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
  originalAttributes,
  PARK_ATTRIBUTES,
  TooLargeToPark,
  toSdkAttributes,
} from "./function/dlqMessage";
export { embeddedMetrics, METRICS_NAMESPACE } from "./function/metrics";
export type { FailureCause, MessageResult, Outcome } from "./function/outcome";
export { OUTCOMES } from "./function/outcome";
export { type Group, isFifoSource, planGroups, type WorkItem } from "./function/planGroups";
export { type BatchResult, processBatch } from "./function/processBatch";
export type { WorkerDeps } from "./function/workerDeps";
