/**
 * `@rewards/core`: the pure domain — events and their decoding, the reward rules, intent keys,
 * event time, the table's layout, the award and revocation plans, the DLQ format (written and
 * read), announcements, and the services' limits the formats must fit. No module here talks
 * to AWS (tests/seams.test.ts holds it to that): they take values and return values.
 */

export {
  type AchievementCondition,
  achievementsDue,
  achievementTitle,
  FIXED_ACHIEVEMENTS,
  isAchievementId,
  meets,
  type Progress,
} from "./achievements";
export {
  achievementsOnTimeline,
  type EarnedOnTimeline,
  type TimelineAward,
  type TimelineSource,
  timelineAwardOf,
  timelineEvents,
  timelineTotals,
} from "./achievementTimeline";
export type { Award } from "./award";
export {
  type AwardRequest,
  cappedDay,
  countsByType,
  dayTotalExpiresAt,
  keptStamp,
  MAX_TRANSACTION_ITEMS,
  PROFILE_STAMP_CONDITION,
  type ProfileUpdate,
  payable,
  planAwardTransaction,
  profileUpdate,
  type Refusal,
  type RefusedItem,
  restamped,
} from "./awardPlan";
export {
  BOARD_MAX_RANK,
  type BoardEntry,
  type BoardPosition,
  boardPageOf,
  type RankReading,
  rankAfterCount,
  rankOf,
  type ShardTop,
} from "./boardRanks";
export { capRoom, countsTowardCap, paidUnderCap } from "./dailyCap";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  validateEvent,
} from "./decodeEvent";
export { type Envelope, userIdSchema } from "./envelope";
export {
  MAX_PUT_EVENTS_BYTES,
  MAX_PUT_EVENTS_ENTRIES,
  putEventsEntryBytes,
  type SizedEntry,
} from "./eventBridgeLimits";
export {
  eventJsonSchema,
  rewardAchievedJsonSchema,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
} from "./eventJsonSchema";
export { type EventPattern, matchesAnyPattern, matchesPattern, type PatternValue } from "./eventPattern";
export { eventTimeOf, firstSentAtOf, type QueueTimes, untimelyReason } from "./eventTime";
export {
  dataOfKey,
  HISTORY_PUT_CONDITION,
  type HistoryItem,
  type HistoryOptions,
  type HistoryPut,
  historyItemOf,
  historyItemSchema,
  historyPutOf,
} from "./historyItem";
export { type HistoryRepair, type HistoryRepairOptions, historyRepairOf } from "./historyRepair";
export { againInOrder } from "./inOrder";
export { intentKey, MAX_INTENT_KEY_BYTES } from "./intentKey";
export { isIsoWeek, isoWeekDays, isoWeekOf, isoWeekPlus, isoWeekSchema, isoWeekStartMs } from "./isoWeek";
export { dayNumberOf, dayOfNumber, longestRun, type Streak, streakOf } from "./keptDays";
export { LEVEL_FLOORS, LEVEL_STEP, type Level, levelFloor, levelOf } from "./levels";
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
export { parseRevokeLine } from "./revokeLine";
export { planRevocation } from "./revokeTransaction";
export {
  type Attempted,
  countVerdicts,
  guardStanding,
  type RevokeCounts,
  type RevokeResult,
  resultOf,
} from "./revokeVerdict";
export {
  type AchievementItem,
  achievementId,
  achievementItemSchema,
  type RewardAchieved,
  rewardAchieved,
  rewardAchievedSchema,
} from "./rewardAchieved";
export {
  type Announcement,
  type AwardAnnouncement,
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
export { type EventType, eventTypes, isEventType, keyPartsOf, type RuleData, rules } from "./rules";
export { seededRandom } from "./seededRandom";
export {
  type Attributes,
  MAX_BATCH_ENTRIES,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
} from "./sqsMessage";
export { readGuard, type StoredGuard } from "./storedGuard";
export { type StreamBatchFailure, streamBatchFailureSchema } from "./streamBatchFailure";
export {
  ACHIEVEMENT_SK_PREFIX,
  AWARD_SK_PREFIX,
  achievementKey,
  achievementOfKey,
  BOARD_INDEX,
  BOARD_PARTITION_KEY,
  BOARD_SORT_KEY,
  boardEntryOfSortKey,
  boardPartition,
  boardShardOf,
  boardSortKey,
  boardXpPrefix,
  countAttribute,
  DAY_SK_PREFIX,
  DEFAULT_BOARD_SHARDS,
  dayOfKey,
  dayTotalKey,
  GUARD_PK_PREFIX,
  GUARD_SK,
  guardKey,
  historyItemKey,
  intentKeyOfGuard,
  PARTITION_KEY,
  profileKey,
  progressKey,
  REVOKED_ATTRIBUTE,
  SORT_KEY,
  TTL_ATTRIBUTE,
  userOfKey,
  WEEK_SK_PREFIX,
  weekKey,
  weekOfKey,
} from "./tableLayout";
export { plural, text } from "./text";
export { unwrapEnvelope } from "./unwrapEnvelope";
export {
  EMPTY_WEEK,
  sameWeek,
  type WeekAward,
  type WeekFact,
  type WeekItem,
  type WeekItemInput,
  type WeekState,
  weekAfter,
  weekExpiresAt,
  weekFactKey,
  weekHistoryStart,
  weekItemOf,
  weekOfHistory,
  weekPutCondition,
  weekStateOf,
  weekXpOf,
} from "./weekItem";
