export {
  type FaultKind,
  type FaultProxy,
  type FaultProxyOptions,
  type FaultRule,
  operationOf,
  startFaultProxy,
} from "./faultProxy";
export { LocalStackError, type LocalStackErrorCode } from "./localStackError";
export { createTable, type Provisioned, type ProvisionOptions, provision } from "./provision";
export { type DynamoOptions, MOTO_INSTALL_HINT, pythonForMoto, startDynamo } from "./startDynamo";
export { type Backend, type LocalStack, type LocalStackOptions, startLocalStack } from "./startLocalStack";
export { FAUXQS_VERSION } from "./startSqs";
