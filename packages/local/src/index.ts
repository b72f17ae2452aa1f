export { acknowledge } from "./eventSource/batchResponse";
export { DeliveryCounts } from "./eventSource/deliveryCounts";
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
export { type FaultKind, type FaultRule, startFaultProxy } from "./faultProxy";
export {
  createFunctionRuntime,
  FunctionError,
  type FunctionRuntime,
} from "./functionRuntime/functionRuntime";
export { lambdaEnvironment } from "./functionRuntime/lambdaEnvironment";
export { LocalStackError } from "./localStackError";
export { createTable, type Provisioned, type ProvisionOptions, provision } from "./provision";
export { pythonForMoto, startDynamo } from "./startDynamo";
export { type LocalStack, type LocalStackOptions, startLocalStack } from "./startLocalStack";
