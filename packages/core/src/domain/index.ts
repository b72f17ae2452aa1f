/**
 * `@rewards/core`: the pure domain — events and their decoding, the reward rules, intent keys,
 * event time, the table's layout, the award and revocation plans, the DLQ format (written and
 * read), announcements, and the services' limits the formats must fit. No module here talks
 * to AWS (tests/seams.test.ts holds it to that): they take values and return values.
 */

export type { Award } from "./award";
export {
  type AwardRequest,
  type CancellationReason,
  cappedDay,
  dayTotalExpiresAt,
  MAX_TRANSACTION_ITEMS,
  PROFILE_UPDATE,
  payable,
  planAwardTransaction,
  type Refusal,
  type RefusedItem,
} from "./awardPlan";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  validateEvent,
} from "./decodeEvent";
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
export { intentKey, MAX_INTENT_KEY_BYTES } from "./intentKey";
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
  type GuardStanding,
  guardStanding,
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
export { epochMsOfRfc3339, rfc3339DateTime } from "./rfc3339";
export {
  type EventType,
  eventTypes,
  isEventType,
  keyPartsOf,
  LONGEST_CAPPED_MEMORY_SECONDS,
  type RuleData,
  rules,
} from "./rules";
export { seededRandom } from "./seededRandom";
export {
  type Attributes,
  MAX_BATCH_ENTRIES,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
} from "./sqsMessage";
export { isExpired, type ReadGuard, readGuard, type StoredGuard, storedGuardSchema } from "./storedGuard";
export { type StreamBatchFailure, streamBatchFailureSchema } from "./streamBatchFailure";
export {
  dayTotalKey,
  GUARD_PK_PREFIX,
  GUARD_SK,
  guardItemFields,
  guardKey,
  intentKeyOfGuard,
  PARTITION_KEY,
  profileKey,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from "./tableLayout";
export { text } from "./text";
export { unwrapEnvelope } from "./unwrapEnvelope";
