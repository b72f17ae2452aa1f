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

export interface CancellationReason {
  Code?: string | undefined;
  Message?: string | undefined;
  Item?: Record<string, unknown> | undefined;
}

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  CancellationReasons?: CancellationReason[];
  $metadata?: { httpStatusCode?: number };
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
 * One line for logs and the `rewards.reason` attribute: name, reasons, message. A plain
 * `Error` is its message alone (callers print it after "error", which made "error Error: …").
 */
export function describeError(error: unknown): string {
  const shape = shapeOf(error);
  const name = typeof shape.name === "string" ? shape.name : "Error";
  const message = typeof shape.message === "string" ? shape.message : String(error);
  const reasons = shape.CancellationReasons?.map((reason) => reason.Code ?? "None");
  if (reasons) return `${name} [${reasons.join(", ")}]: ${message}`;
  return name === "Error" ? message : `${name}: ${message}`;
}

/** An item of an award's transaction that DynamoDB can refuse. */
export type RefusedItem = { kind: "guard" } | { kind: "profile" } | { kind: "day"; day: string };

/** One refused item in words a person can act on, with DynamoDB's own. */
export function refusedItemReason(item: RefusedItem, said: string, userId: string): string {
  if (item.kind === "guard") return `the award's guard item was refused: ${said}`;
  if (item.kind === "day")
    return `the day total of user ${JSON.stringify(userId)} for ${item.day} (USER#${userId}, DAY#${item.day}) was refused: ${said}`;
  return (
    `the profile of user ${JSON.stringify(userId)} (USER#${userId}) was refused: ${said} — ` +
    `the award adds to its xp and awards, which must both be numbers; repair it with ` +
    `\`rewards user ${shellWord(userId)} --set-xp <n> --yes\`, then replay`
  );
}

/** The reason of a rejected award: each item refused, then the error itself for reference. */
export function refusalReason(
  refused: ReadonlyArray<{ item: RefusedItem; said: string }>,
  error: unknown,
  userId: string,
): string {
  const items = refused.map(({ item, said }) => refusedItemReason(item, said, userId));
  return `${items.join("; ")} (${describeError(error)})`;
}

/** `userId` as one shell word: bare when it is plainly safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
