/**
 * `@rewards/core/aws`: the adapters — SDK clients and their options, the award path's
 * transaction shell (`awardTogether`, `awardOnce`), retries, deadlines, error classification
 * and formatting, SQS batching, the logger and metrics. They build on `@rewards/core`.
 */

export {
  EMITTED_METRICS,
  type EmittedBy,
  METRICS_DIMENSION,
  METRICS_DIMENSIONS,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
  type MetricService,
} from "../deploy/emittedMetrics";
export { AwardError, type AwardResult, awardOnce } from "./awardOnce";
export { type AwardDeps, type AwardOptions, type AwardOutcome, awardTogether } from "./awardTogether";
export {
  type AwsCall,
  awsCallOf,
  callField,
  describeCall,
  ownAwsCall,
  resourceOf,
  type WithAwsCall,
  withNamedCalls,
} from "./awsCall";
export {
  cancellationReasons,
  classifyError,
  type ErrorClass,
  isConditionFailure,
  isItemLevelCancellation,
  isThrottling,
} from "./classifyError";
export { type CurrentRead, readCurrentVersion } from "./currentRules";
export { type Deadline, invocationDeadline, NO_DEADLINE, remainingMsOf, signalFor } from "./deadline";
export { describeError, describeErrorAlone } from "./describeError";
export { createDynamoBaseClient, createDynamoClient } from "./dynamoClient";
export { embeddedMetrics, type MetricDimensions } from "./embeddedMetrics";
export { createEventBridgeClient } from "./eventBridgeClient";
export {
  type AchievementRecord,
  type GuardRecord,
  readAchievementRecord,
  readGuardRecord,
  type TableStreamRecord,
} from "./guardRecord";
export { changeKeptDays, overtakenDays } from "./keptDayWrites";
export { createLogger, type Logger } from "./logger";
export {
  type AchievementTable,
  consistentItems,
  historyItemsOf,
  historyOf,
  partitionItems,
  type SettledAchievements,
  settleAchievements,
  settledByGuards,
  settledWith,
  UnprocessedKeysError,
} from "./readerAchievements";
export { refusedStamp } from "./refusedStamp";
export { fullJitterDelay, RetriesExhaustedError, type RetryPolicy, retry } from "./retry";
export {
  createRulesSource,
  NoGoodRulesError,
  type RulesInForce,
  type RulesSource,
  type RulesSourceDeps,
} from "./rulesSource";
export { clientDefaults, credentials, sdkLogger } from "./sdkClientOptions";
export { retryRemainder, sendSqsBatch } from "./sqsBatch";
export { createSqsClient } from "./sqsClient";
export { createStreamsClient, TableStreamMissingError, tableStreamArn } from "./tableStream";
export { applyToWeek, awardsSince, rebuildWeek, storedWeek, type WeekTable } from "./weekTotals";
