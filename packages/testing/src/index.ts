export { type CliRun, REWARDS_BIN, runCli, startCli } from "./cli";
export { completed, eventBody, signup } from "./events";
export { type Attempt, type AttemptFault, conflicted, recordAttempts, throttled } from "./httpAttempts";
export { lambdaContext, type RecordOptions, sqsEvent, sqsRecord } from "./lambdaEvents";
export { childrenOf, eventuallyClosed, isListening, portOf } from "./processes";
export { drain } from "./queues";
export { type StackFixtures, stackTest } from "./stackFixture";
export { guardOf, profileOf } from "./table";
export { waitFor } from "./waitFor";
