export type { Award } from "./award";
export { type AwardDeps, AwardError, type AwardRequest, type AwardResult, awardOnce } from "./awardOnce";
export {
  type CancellationReason,
  cancellationReasons,
  classifyError,
  describeError,
  type ErrorClass,
  isUnknownOutcome,
} from "./classifyError";
export {
  type Config,
  ConfigError,
  type ConfigVariable,
  type ConfigWith,
  configSchema,
  loadConfig,
} from "./config";
export {
  DEFAULT_SAFETY_MARGIN_MS,
  type Deadline,
  invocationDeadline,
  NO_DEADLINE,
  signalFor,
} from "./deadline";
export {
  type Decoded,
  decodeEvent,
  describeIssues,
  type EventIssue,
  toIssues,
  type Validated,
  validateEvent,
} from "./decodeEvent";
export { createDynamoClient } from "./dynamoClient";
export { type Envelope, envelopeSchema, userIdSchema } from "./envelope";
export { eventJsonSchema, eventSchemaFor } from "./eventJsonSchema";
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
export { isRfc3339DateTime, RFC3339_PATTERN } from "./rfc3339";
export { type EventType, eventTypes, isEventType, keyPartsOf, type RuleData, rules } from "./rules";
export { type ClientOptions, sdkLogger } from "./sdkClientOptions";
export { seededRandom } from "./seededRandom";
export { createSqsClient } from "./sqsClient";
export { text } from "./text";
export { type Layer, layerPrefix, type Unwrapped, unwrapEnvelope } from "./unwrapEnvelope";
