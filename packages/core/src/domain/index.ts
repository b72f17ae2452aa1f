/**
 * `@rewards/core`: the pure domain — events and their decoding, the reward rules, intent keys,
 * event time, the table's layout, the award and revocation plans, the DLQ format (written and
 * read), announcements, and the services' limits the formats must fit. No module here talks
 * to AWS (tests/seams.test.ts holds it to that): they take values and return values.
 */

export {
  MAX_PUT_EVENTS_BYTES,
  MAX_PUT_EVENTS_ENTRIES,
  putEventsEntryBytes,
  type SizedEntry,
} from "./announce/eventBridgeLimits";
export {
  type EventPattern,
  matchesAnyPattern,
  matchesPattern,
  type PatternValue,
} from "./announce/eventPattern";
export {
  type AchievementItem,
  achievementId,
  achievementItemSchema,
  type RewardAchieved,
  rewardAchieved,
  rewardAchievedSchema,
} from "./announce/rewardAchieved";
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
} from "./announce/rewardGranted";
export { type StreamBatchFailure, streamBatchFailureSchema } from "./announce/streamBatchFailure";
export type { Award } from "./award/award";
export {
  type AwardRequest,
  cappedDay,
  countsByType,
  dayTotalExpiresAt,
  isStoredInstant,
  keptStamp,
  MAX_STAMP_AHEAD_MS,
  MAX_TRANSACTION_ITEMS,
  PROFILE_STAMP_CONDITION,
  type ProfileUpdate,
  payable,
  planAwardTransaction,
  profileUpdate,
  type Refusal,
  type RefusedItem,
  restamped,
  stampProblem,
} from "./award/awardPlan";
export { capRoom, countsTowardCap, paidUnderCap } from "./award/dailyCap";
export { againInOrder } from "./award/inOrder";
export {
  BOARD_MAX_RANK,
  type BoardEntry,
  type BoardPosition,
  boardPageOf,
  type RankReading,
  rankAfterCount,
  rankOf,
  type ShardTop,
} from "./board/boardRanks";
export {
  isIsoWeek,
  isoWeekDays,
  isoWeekOf,
  isoWeekPlus,
  isoWeekSchema,
  isoWeekStartMs,
} from "./board/isoWeek";
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
} from "./board/weekItem";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  validateEvent,
  validatePublished,
} from "./events/decodeEvent";
export { type Envelope, userIdSchema } from "./events/envelope";
export {
  eventJsonSchema,
  rewardAchievedJsonSchema,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
  versionEventJsonSchema,
} from "./events/eventJsonSchema";
export { eventTimeOf, firstSentAtOf, type QueueTimes, untimelyReason } from "./events/eventTime";
export { intentKey, MAX_INTENT_KEY_BYTES } from "./events/intentKey";
export { QUOTED_INPUT_CHARACTERS, quoteInput } from "./events/quoteInput";
export { epochMsOfRfc3339 } from "./events/rfc3339";
export {
  type Attributes,
  MAX_BATCH_ENTRIES,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
} from "./events/sqsMessage";
export { plural, text } from "./events/text";
export { unwrapEnvelope } from "./events/unwrapEnvelope";
export {
  dataOfKey,
  HISTORY_PUT_CONDITION,
  type HistoryItem,
  type HistoryOptions,
  type HistoryPut,
  historyItemOf,
  historyItemSchema,
  historyPutOf,
} from "./history/historyItem";
export { type HistoryRepair, type HistoryRepairOptions, historyRepairOf } from "./history/historyRepair";
export {
  buildParkedMessage,
  type DlqMessage,
  originalAttributes,
  PARK_ATTRIBUTES,
  replayAttributes,
  TooLargeToPark,
} from "./park/parkedMessage";
export { PARK_CODES, type ParkCode, type ParkReason, parkReason } from "./park/parkReason";
export { DLQ_ERRORS, type ParkedMessage, REDRIVEN, readParkedMessage } from "./park/readParkedMessage";
export {
  type AchievementCondition,
  achievementsDue,
  achievementTitle,
  FIXED_ACHIEVEMENTS,
  isAchievementId,
  meets,
  type Progress,
  type TimedAchievement,
} from "./progress/achievements";
export {
  achievementsOnTimeline,
  type EarnedOnTimeline,
  type TimelineAward,
  type TimelineSource,
  timelineAwardOf,
  timelineEvents,
  timelineTotals,
} from "./progress/achievementTimeline";
export { dayNumberOf, dayOfNumber, keptDayOf, longestRun, type Streak, streakOf } from "./progress/keptDays";
export { LEVEL_FLOORS, LEVEL_STEP, type Level, levelFloor, levelOf } from "./progress/levels";
export { parseRevokeLine } from "./revoke/revokeLine";
export { planRevocation } from "./revoke/revokeTransaction";
export {
  type Attempted,
  countVerdicts,
  guardStanding,
  type RevokeCounts,
  type RevokeResult,
  resultOf,
} from "./revoke/revokeVerdict";
export {
  type AchievementTimes,
  achievementTimesAfter,
  achievementTimesSchema,
  timedAchievementsOf,
} from "./rules/achievementTimes";
export { BUILTIN_RULES, BUILTIN_RULES_VERSION } from "./rules/builtinRules";
export { type CampaignPay, campaignPay } from "./rules/campaignPay";
export { type CheckedRules, checkRules } from "./rules/checkRules";
export {
  checkRulesChange,
  type LongestMemory,
  longerMemory,
  longestMemoryAfter,
  type Memory,
  memoryOf,
  type RulesChange,
  type RulesChangeContext,
} from "./rules/checkRulesChange";
export {
  builtinCompiled,
  type CompiledRules,
  type CompiledType,
  compileRules,
  compileVersion,
  forKeys,
  type Pay,
} from "./rules/compileRules";
export { rollbackRules } from "./rules/rollbackRules";
export { type EventType, eventTypes, isEventType, keyPartsOf, type RuleData, rules } from "./rules/rules";
export { canonicalJson, rulesDigest } from "./rules/rulesDigest";
export {
  type AchievementRule,
  type Campaign,
  MAX_RULES_BYTES,
  RULES_FORMAT,
  type RulesDocument,
  type RulesDocumentInput,
  rulesDocumentSchema,
  rulesJsonSchema,
  TYPE_NAME,
  type TypeRule,
} from "./rules/rulesDocument";
export { describeRulesProblems, pathOf, type RulesProblem } from "./rules/rulesProblem";
export {
  builtinVersion,
  DEFAULT_RULES_REFRESH_SECONDS,
  type RulesPointer,
  type RulesVersion,
  rulesPointerSchema,
  rulesVersionItemSchema,
  type VerifiedVersion,
  verifiedVersion,
} from "./rules/rulesVersion";
export { seededRandom } from "./seededRandom";
export { readGuard, type StoredGuard } from "./table/storedGuard";
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
  countsOfProfile,
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
  RULES_CURRENT_SK,
  RULES_PK,
  RULES_VERSION_SK_PREFIX,
  rulesPointerKey,
  rulesVersionKey,
  SORT_KEY,
  TTL_ATTRIBUTE,
  userOfKey,
  versionOfRulesKey,
  WEEK_SK_PREFIX,
  weekKey,
  weekOfKey,
} from "./table/tableLayout";
