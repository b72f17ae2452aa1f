/** `@rewards/history`: the history's writer, for tests and the local runtime (the handler is `./handler`). */
export { createHandler, type StreamBatchHandler } from "./function/createHandler";
export { createHistoryDeps } from "./function/createHistoryDeps";
export { type HistoryConfig, readHistoryConfig } from "./function/historyConfig";
export type { HistoryDeps } from "./function/historyDeps";
export { HISTORY_FILTER_PATTERNS, isHistoryCandidate } from "./function/historyFilter";
export {
  type BatchCounts,
  type BatchResult,
  processBatch,
  type RecordFailure,
} from "./function/processBatch";
