export { createWorkerDeps } from "./createWorkerDeps";
export { buildDlqMessage, MAX_MESSAGE_ATTRIBUTES, PARK_ATTRIBUTES, toSdkAttributes } from "./dlqMessage";
export { handler } from "./handler";
export { embeddedMetrics, METRICS_NAMESPACE } from "./metrics";
export type { FailureCause, MessageResult, Outcome } from "./outcome";
export { OUTCOMES } from "./outcome";
export { isFifoSource, type Lane, planLanes, type WorkItem } from "./planBatch";
export { type BatchResult, processBatch } from "./processBatch";
export { DEFAULT_SAFETY_MARGIN_MS, type WorkerDeps } from "./workerDeps";
