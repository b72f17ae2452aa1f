/**
 * Error formatting, for every package: one line for logs, a parked message's reason and the
 * CLI's messages. What an error means is classifyError's; this only says what it is.
 */

interface Described {
  name?: unknown;
  message?: unknown;
  CancellationReasons?: Array<{ Code?: string | undefined }>;
}

/**
 * Name, a cancellation's reasons, message. A plain `Error` is its message alone (callers
 * print it after "error", which made "error Error: …").
 */
export function describeError(error: unknown): string {
  const shape: Described = typeof error === "object" && error !== null ? (error as Described) : {};
  const name = typeof shape.name === "string" ? shape.name : "Error";
  const message = typeof shape.message === "string" ? shape.message : String(error);
  const reasons = shape.CancellationReasons?.map((reason) => reason.Code ?? "None");
  if (reasons) return `${name} [${reasons.join(", ")}]: ${message}`;
  return name === "Error" ? message : `${name}: ${message}`;
}
