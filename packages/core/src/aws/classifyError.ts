import type { CancellationReason } from "../domain/award/awardPlan";

/**
 * What to do about an error from the guard transaction. Pure: it reads only the error's
 * name, code, status and cancellation reasons, so every row is table-tested.
 *
 * - `duplicate`: the guard (item 0) already exists — the intent was paid.
 * - `transient`: may succeed if tried again (throttling, conflicts, 5xx, network, timeouts).
 * - `permanent`: this message's write can never succeed (an item-level ValidationError,
 *   e.g. a profile whose `xp` is not a number) — it is parked as `rejected`.
 * - `configuration`: the request itself is wrong or unauthorised whatever the message (a
 *   top-level ValidationException from a wrong table schema, a missing table, denied
 *   access). Not retried in-process, never parked: the message is fine, the deployment is not.
 */
export type ErrorClass = "duplicate" | "transient" | "permanent" | "configuration";

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  CancellationReasons?: CancellationReason[];
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

const THROTTLING = new Set([
  "ThrottlingError",
  "ProvisionedThroughputExceeded",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "ThrottlingException",
  "TooManyRequestsException",
]);

/** Item-level reasons inside a cancelled transaction that no retry can change. */
const PERMANENT_REASONS = new Set(["ValidationError", "ItemCollectionSizeLimitExceeded"]);

/** Top-level errors that say the deployment, not the message, is wrong. */
const CONFIGURATION = new Set([
  "ValidationException",
  "SerializationException",
  "ResourceNotFoundException",
  "AccessDeniedException",
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "MissingAuthenticationTokenException",
  "IncompleteSignatureException",
  "IdempotentParameterMismatchException",
]);

function shapeOf(error: unknown): ErrorShape {
  return typeof error === "object" && error !== null ? (error as ErrorShape) : {};
}

export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  const shape = shapeOf(error);
  // Stryker disable next-line ArrayDeclaration: an absent list and a list of anything but reasons classify alike (no Code, no Item)
  return shape.name === "TransactionCanceledException" ? (shape.CancellationReasons ?? []) : undefined;
}

function classifyCancellation(reasons: CancellationReason[]): ErrorClass {
  // The guard is item 0: its condition failing means this intent was already paid.
  if (reasons[0]?.Code === "ConditionalCheckFailed") return "duplicate";
  const codes = reasons.map((reason) => String(reason.Code));
  // A conflict or throttling on any item may pass on another try, whatever else is wrong.
  if (codes.some((code) => code === "TransactionConflict" || THROTTLING.has(code))) return "transient";
  if (codes.some((code) => PERMANENT_REASONS.has(code))) return "permanent";
  return "transient";
}

/**
 * A cancellation that is an answer about particular items — a failed condition (a guard
 * already there, a day's total at the cap) or an item refused for good — with nothing in it
 * that another try could change: the award path reads it item by item instead of retrying
 * it whole (docs/awards.md).
 */
export function isItemLevelCancellation(error: unknown): boolean {
  const reasons = cancellationReasons(error);
  if (!reasons) return false;
  const codes = reasons.map((reason) => String(reason.Code));
  if (codes.some((code) => code === "TransactionConflict" || THROTTLING.has(code))) return false;
  return codes.some((code) => code === "ConditionalCheckFailed" || PERMANENT_REASONS.has(code));
}

/**
 * Throttling, conflicts, 5xx, network errors (resets, refusals, DNS), timeouts and aborts
 * are all `transient`, and so is every error never seen before: it is retried and
 * eventually redriven, never dropped because we do not understand it. Only a cancellation's
 * reasons and the configuration errors say otherwise.
 */
export function classifyError(error: unknown): ErrorClass {
  const reasons = cancellationReasons(error);
  if (reasons) return classifyCancellation(reasons);
  if (CONFIGURATION.has(String(shapeOf(error).name))) return "configuration";
  return "transient";
}

/** A "slow down" answer: a throttling error's name, or the SDK's own mark (`$retryable.throttling`). */
export function isThrottling(error: unknown): boolean {
  const shape = shapeOf(error);
  return THROTTLING.has(String(shape.name)) || shape.$retryable?.throttling === true;
}

/**
 * A transient error that carries no answer from DynamoDB (a reset, a timeout, an abort, a
 * 5xx): the transaction may or may not have committed. Throttling and cancellations are
 * answers — nothing was written.
 */
export function isUnknownOutcome(error: unknown): boolean {
  return (
    classifyError(error) === "transient" &&
    !cancellationReasons(error) &&
    !THROTTLING.has(String(shapeOf(error).name))
  );
}

/**
 * A single write's condition failed (`ConditionalCheckFailedException`): DynamoDB's answer
 * that the item is not as the condition asked, nothing written. The history's put is
 * conditional (an unrevoked item never replaces a revoked one), so for its writer and
 * `rewards history rebuild` this is an older image after a revocation: skipped, not failed.
 * (A transaction's failed condition is a cancellation reason instead: classifyError.)
 */
export function isConditionFailure(error: unknown): boolean {
  return shapeOf(error).name === "ConditionalCheckFailedException";
}
