export type { Award } from "./award";
export {
  type AwardDeps,
  AwardError,
  type AwardOutcome,
  type AwardRequest,
  awardOnce,
} from "./awardOnce";
export { classifyError, describeError, type ErrorClass } from "./classifyError";
export { type ClientOptions, createDynamoClient, createSqsClient } from "./clients";
export {
  type Config,
  ConfigError,
  type ConfigVariable,
  type ConfigWith,
  configSchema,
  loadConfig,
} from "./config";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  type Validated,
  validateEvent,
} from "./decodeEvent";
export { type Envelope, envelopeSchema, userIdSchema } from "./envelope";
export {
  epochSeconds,
  GUARD_CONDITION,
  type GuardTransactionContext,
  PROFILE_UPDATE,
  planGuardTransaction,
} from "./guardTransaction";
export {
  GUARD_PK_PREFIX,
  GUARD_SK,
  guardKey,
  intentKey,
  MAX_INTENT_KEY_BYTES,
  PROFILE_SK,
  profileKey,
} from "./intentKey";
export { createLogger, type Logger, type LoggerOptions } from "./logger";
export { MAX_REASON_LENGTH, type ParkCode, type ParkReason, parkReason } from "./parkReason";
export { type Resources, resources } from "./resources";
export {
  DEFAULT_RETRY_POLICY,
  fullJitterDelay,
  RetriesExhaustedError,
  type RetryHooks,
  type RetryPolicy,
  retry,
} from "./retry";
export { type EventType, eventTypes, isEventType, keyPartsOf, type RuleData, rules } from "./rules";
