export { acknowledge } from "./eventSource/batchResponse";
export {
  type CheckpointFile,
  type Checkpoints,
  fileCheckpoints,
  memoryCheckpoints,
  savedCheckpoints,
} from "./eventSource/checkpoints";
export { DeliveryCounts } from "./eventSource/deliveryCounts";
export { lambdaContext } from "./eventSource/lambdaContext";
export {
  type BatchHandler,
  type BatchSummary,
  type Poller,
  type PollerOptions,
  PollerOptionsError,
  startPoller,
} from "./eventSource/poller";
export { toLambdaStreamRecord } from "./eventSource/streamRecord";
export {
  type StreamBatchSummary,
  type StreamHandler,
  type StreamSource,
  type StreamSourceOptions,
  startStreamSource,
} from "./eventSource/streamSource";
export { type FaultKind, type FaultRule, startFaultProxy } from "./faultProxy";
export {
  createFunctionRuntime,
  FunctionError,
  type FunctionRuntime,
} from "./functionRuntime/functionRuntime";
export { lambdaEnvironment } from "./functionRuntime/lambdaEnvironment";
export type { AnnouncerStats } from "./functions/announcerStats";
export { type FunctionCode, functionLinesTo } from "./functions/functionProcess";
export type { HistoryStats } from "./functions/historyStats";
export {
  type AnnouncerSettings,
  deployedAnnouncerSettings,
  type LocalAnnouncer,
  startLocalAnnouncer,
} from "./functions/localAnnouncer";
export { type LocalFunctionSettings, localFunctionSettings } from "./functions/localFunctionSettings";
export { deployedHistorySettings, type LocalHistory, startLocalHistory } from "./functions/localHistory";
export { type LocalReadApi, startLocalReadApi } from "./functions/localReadApi";
export { type LocalWorker, type PollerSettings, startLocalWorker } from "./functions/localWorker";
export { type StreamCheckpointFiles, streamCheckpointFiles } from "./functions/streamCheckpointFiles";
export type { StreamMappingSettings } from "./functions/streamFunction";
export { startWorkerFunction } from "./functions/workerFunction";
export { WorkerStats } from "./functions/workerStats";
export { functionUrlEvent, type HttpRequestLine } from "./functionUrl/functionUrlEvent";
export { functionUrlResponse, type HttpAnswer } from "./functionUrl/functionUrlResponse";
export { type FunctionUrlServerOptions, startFunctionUrlServer } from "./functionUrl/functionUrlServer";
export { type BusEvent, type BusRule, type LocalBus, startLocalBus } from "./localBus";
export { type LocalSiteOptions, startLocalSite } from "./localSite";
export { LocalStackError } from "./localStackError";
export type { LoopbackServer } from "./loopbackServer";
export { packageRoot } from "./packageRoot";
export { createTable, type Provisioned, type ProvisionOptions, provision } from "./provision";
export { pythonForMoto, startDynamo } from "./startDynamo";
export { type LocalStack, type LocalStackOptions, startLocalStack } from "./startLocalStack";
