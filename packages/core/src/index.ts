export type { Award } from "./award";
export { AwardError, type AwardResult, awardOnce } from "./awardOnce";
export {
  type AwardRequest,
  cappedDay,
  dayTotalExpiresAt,
  MAX_TRANSACTION_ITEMS,
  PROFILE_UPDATE,
  payable,
  planAwardTransaction,
} from "./awardPlan";
export { type AwardDeps, type AwardOutcome, awardTogether } from "./awardTogether";
export {
  classifyError,
  describeError,
  type ErrorClass,
  type RefusedItem,
  refusalReason,
  refusedItemReason,
} from "./classifyError";
export {
  ConfigError,
  type ConfigWith,
  dailyCapVariable,
  type Environment,
  type LogLevel,
  logLevelSchema,
  readConfig,
  requiredText,
  sdkVariables,
  urlVariable,
} from "./config";
export { type Deadline, invocationDeadline, NO_DEADLINE, remainingMsOf, signalFor } from "./deadline";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  validateEvent,
} from "./decodeEvent";
export { createDynamoClient } from "./dynamoClient";
export { embeddedMetrics } from "./embeddedMetrics";
export type { Envelope } from "./envelope";
export {
  MAX_PUT_EVENTS_BYTES,
  MAX_PUT_EVENTS_ENTRIES,
  putEventsEntryBytes,
  type SizedEntry,
} from "./eventBridgeLimits";
export { eventJsonSchema, rewardGrantedJsonSchema, rewardRevokedJsonSchema } from "./eventJsonSchema";
export { type EventPattern, matchesPattern } from "./eventPattern";
export { eventTimeOf, firstSentAtOf, judgeEventTime, type QueueTimes } from "./eventTime";
export { announcerEnvironment, workerEnvironment } from "./functionEnvironment";
export {
  dayTotalKey,
  GUARD_PK_PREFIX,
  GUARD_SK,
  guardKey,
  intentKey,
  MAX_INTENT_KEY_BYTES,
  profileKey,
} from "./intentKey";
export { createLogger, type Logger } from "./logger";
export {
  buildParkedMessage,
  type DlqMessage,
  originalAttributes,
  PARK_ATTRIBUTES,
  replayAttributes,
  TooLargeToPark,
} from "./parkedMessage";
export { PARK_CODES, type ParkCode, type ParkReason, parkReason } from "./parkReason";
export { DLQ_ERRORS, type ParkedMessage, REDRIVEN, readParkedMessage } from "./readParkedMessage";
export { resources } from "./resources";
export { fullJitterDelay, RetriesExhaustedError, type RetryPolicy, retry } from "./retry";
export { parseRevokeLine, type RevokeLine } from "./revokeLine";
export {
  planRevocation,
  REVOKE_CONDITION,
  REVOKE_GUARD_UPDATE,
  type RevokeContext,
  UNPAY_PROFILE_UPDATE,
} from "./revokeTransaction";
export {
  type Attempted,
  countVerdicts,
  type GuardJudgement,
  judgeGuard,
  type RevokeCounts,
  type RevokeResult,
  type RevokeVerdict,
  resultOf,
} from "./revokeVerdict";
export {
  type Announcement,
  type GuardImage,
  grantId,
  guardImageSchema,
  type RewardGranted,
  type RewardRevoked,
  revokeId,
  rewardGranted,
  rewardGrantedSchema,
  rewardRevoked,
  rewardRevokedSchema,
} from "./rewardGranted";
export { epochMsOfRfc3339 } from "./rfc3339";
export {
  type EventType,
  eventTypes,
  isEventType,
  keyPartsOf,
  LONGEST_CAPPED_MEMORY_SECONDS,
  type RuleData,
  rules,
} from "./rules";
export { clientDefaults, credentials, sdkLogger } from "./sdkClientOptions";
export { seededRandom } from "./seededRandom";
export { retryRemainder, sendSqsBatch } from "./sqsBatch";
export { createSqsClient } from "./sqsClient";
export {
  type Attributes,
  MAX_BATCH_ENTRIES,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
} from "./sqsMessage";
export { isExpired, type ReadGuard, readGuard, type StoredGuard, storedGuardSchema } from "./storedGuard";
export { type StreamBatchFailure, streamBatchFailureSchema } from "./streamBatchFailure";
export { text } from "./text";
export { unwrapEnvelope } from "./unwrapEnvelope";
