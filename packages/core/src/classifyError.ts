/**
 * What to do about an error from the guard transaction. Pure: it reads only the error's
 * name, code, status and cancellation reasons, so every row is table-tested.
 */
export type ErrorClass = "duplicate" | "retryable" | "permanent";

interface CancellationReason {
  Code?: string | undefined;
  Message?: string | undefined;
}

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  CancellationReasons?: CancellationReason[];
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

const THROTTLING = new Set([
  "ThrottlingError",
  "ProvisionedThroughputExceeded",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "ThrottlingException",
  "TooManyRequestsException",
]);

/** Errors that mean the request is wrong and will be wrong every time. */
const PERMANENT = new Set([
  "ValidationException",
  "ValidationError",
  "ItemCollectionSizeLimitExceededException",
  "SerializationException",
]);

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
]);

const TIMEOUTS = new Set(["TimeoutError", "AbortError", "RequestTimeout", "RequestTimeoutException"]);

function shapeOf(error: unknown): ErrorShape {
  return typeof error === "object" && error !== null ? (error as ErrorShape) : {};
}

function classifyCancellation(reasons: CancellationReason[]): ErrorClass {
  // The guard is item 0: its condition failing means this intent was already paid.
  if (reasons[0]?.Code === "ConditionalCheckFailed") return "duplicate";
  const codes = reasons.map((reason) => reason.Code ?? "None");
  if (codes.includes("TransactionConflict")) return "retryable";
  if (codes.some((code) => THROTTLING.has(code))) return "retryable";
  if (codes.includes("ValidationError")) return "permanent";
  return "retryable";
}

export function classifyError(error: unknown): ErrorClass {
  const shape = shapeOf(error);
  const name = typeof shape.name === "string" ? shape.name : "";
  const code = typeof shape.code === "string" ? shape.code : "";
  if (name === "TransactionCanceledException") {
    return classifyCancellation(shape.CancellationReasons ?? []);
  }
  if (THROTTLING.has(name)) return "retryable";
  if (PERMANENT.has(name)) return "permanent";
  if (NETWORK_CODES.has(code) || TIMEOUTS.has(name)) return "retryable";
  if (typeof shape.message === "string" && /socket hang up/i.test(shape.message)) return "retryable";
  // Everything else — 5xx, a missing table, access denied, an error never seen before —
  // is retried and eventually redriven: never drop a message we do not understand.
  return "retryable";
}

/** One line for logs and the `rewards.reason` attribute: name, reasons, message. */
export function describeError(error: unknown): string {
  const shape = shapeOf(error);
  const name = typeof shape.name === "string" ? shape.name : "Error";
  const message = typeof shape.message === "string" ? shape.message : String(error);
  const reasons = shape.CancellationReasons?.map((reason) => reason.Code ?? "None");
  return reasons ? `${name} [${reasons.join(", ")}]: ${message}` : `${name}: ${message}`;
}
