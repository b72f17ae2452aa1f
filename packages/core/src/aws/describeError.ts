/**
 * Error formatting, for every package: one line for logs, a parked message's reason and the
 * CLI's messages. What an error means is classifyError's; this only says what it is.
 */
import { describeCall, ownAwsCall } from "./awsCall";
import { isThrottling } from "./classifyError";

interface Described {
  name?: unknown;
  message?: unknown;
  CancellationReasons?: Array<{ Code?: string | undefined }>;
}

/**
 * Name, a cancellation's reasons, message. A plain `Error` is its message alone (callers
 * print it after "error", which made "error Error: …"). An SDK client's failure (one of ours:
 * `withNamedCalls`) is led by the call it was — "DynamoDB Query on table rewards at
 * http://127.0.0.1:43323: timed out after 5000 ms (requestTimeout)" — never the SDK's line alone.
 */
export function describeError(error: unknown): string {
  const call = ownAwsCall(error);
  return call === undefined ? describeErrorAlone(error) : `${describeCall(call)}: ${whatHappened(error)}`;
}

/**
 * The error without the call it was: for a text that already says which call and items it is
 * about (a rejected award's reason lists the refused items, then this "for reference").
 */
export function describeErrorAlone(error: unknown): string {
  const shape: Described = typeof error === "object" && error !== null ? (error as Described) : {};
  const name = typeof shape.name === "string" ? shape.name : "Error";
  const message = typeof shape.message === "string" ? shape.message : String(error);
  const reasons = shape.CancellationReasons?.map((reason) => reason.Code ?? "None");
  if (reasons) return `${name} [${reasons.join(", ")}]: ${message}`;
  return name === "Error" ? message : `${name}: ${message}`;
}

/** The SDK's request handler's lines: "… exceeded the configured 5000 ms requestTimeout", "… within the configured timeout of 2000 ms". */
const REQUEST_TIMEOUT = /configured (\d+) ms requestTimeout/;
const CONNECTION_TIMEOUT =
  /did not establish a connection with the server within the configured timeout of (\d+) ms/;

/** A failed call's outcome in words: a timeout as the limit it passed, a throttle as such, else the error. */
function whatHappened(error: unknown): string {
  const alone = describeErrorAlone(error);
  const requestTimeout = REQUEST_TIMEOUT.exec(alone);
  if (requestTimeout) return `timed out after ${requestTimeout[1]} ms (requestTimeout)`;
  const connectionTimeout = CONNECTION_TIMEOUT.exec(alone);
  if (connectionTimeout) return `could not connect within ${connectionTimeout[1]} ms (connectionTimeout)`;
  return isThrottling(error) ? `throttled: ${alone}` : alone;
}
