// One Lambda context for every test and event source: the local stack's.
export { lambdaContext } from "@rewards/local";
export { type CliRun, DEV_ENV_VARIABLES, exportedEnv, REWARDS_BIN, runCli, startCli } from "./cli";
export { type PollerCounts, startCountingPoller } from "./countingPoller";
export { completed, eventBody, signup } from "./events";
export { awsError, type FakeAnswer, type FakeEndpoint, fakeEndpoint } from "./fakeEndpoint";
export { freshModule } from "./freshModule";
export { HANG_GUARD_MS } from "./hangGuard";
export { type Attempt, type AttemptFault, conflicted, recordAttempts, throttled } from "./httpAttempts";
export {
  guardItem,
  type RecordOptions,
  sqsEvent,
  sqsRecord,
  streamEvent,
  streamRecord,
} from "./lambdaEvents";
export { childrenOf, eventuallyClosed, isListening, portOf } from "./processes";
export { drain } from "./queues";
export { type EditableRules, rulesWith } from "./rules";
export { type StackFixtures, stackTest } from "./stackFixture";
export { guardOf, profileIn, profileOf } from "./table";
export { typecheckModules } from "./typecheckModules";
export { waitFor } from "./waitFor";
