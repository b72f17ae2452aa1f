import { classifyError } from "@rewards/core/aws";
import { ThrottledReadError } from "@rewards/reader";
import { type Parameter, type Problem, problemOf } from "./problem";

const PARAMETERS: readonly Parameter[] = ["userId", "limit", "cursor"];
/** Failures of the call itself, with no answer from AWS: the next try may well succeed. */
const NETWORK_NAMES = new Set(["TimeoutError", "AbortError", "RequestTimeout"]);

function fromAws(error: object): boolean {
  const { name, code } = error as { name?: unknown; code?: unknown };
  return "$metadata" in error || NETWORK_NAMES.has(String(name)) || /^E[A-Z]+$/.test(String(code));
}

/**
 * The problem a failed read answers with: the reader's RangeError (it names the parameter
 * first, `limit: …`) is a 400 for that parameter; AWS throttling (or keys DynamoDB left
 * unprocessed every time: the reader's ThrottledReadError) or a failed call a 503 (try again); anything else — a missing table, denied access, an unreadable item, a bug — a 500.
 * Pure.
 */
export function failureOf(error: unknown): Problem {
  if (error instanceof RangeError) {
    const named = PARAMETERS.find((parameter) => error.message.startsWith(`${parameter}:`));
    if (named) return problemOf("invalidParameter", error.message, named);
  }
  const throttled = error instanceof ThrottledReadError;
  if (
    throttled ||
    (typeof error === "object" && error !== null && fromAws(error) && classifyError(error) === "transient")
  )
    return problemOf("unavailable", "the rewards table could not be read just now; try again shortly");
  return problemOf("internal", "the request could not be answered; the failure is in the read API's log");
}
