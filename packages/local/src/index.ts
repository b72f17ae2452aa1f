export { LocalStackError, type LocalStackErrorCode } from "./localStackError";
export { type Provisioned, type ProvisionOptions, provision } from "./provision";
export { MOTO_INSTALL_HINT, pythonForMoto } from "./startDynamo";
export { type Backend, type LocalStack, type LocalStackOptions, startLocalStack } from "./startLocalStack";
export { FAUXQS_VERSION } from "./startSqs";
