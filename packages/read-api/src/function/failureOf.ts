import { classifyError } from "@rewards/core/aws";
import { InvalidReadInput, ThrottledReadError } from "@rewards/reader";
import { type Problem, problemOf } from "./problem";

/** Failures of the call itself, with no answer from AWS: the next try may well succeed. */
const NETWORK_NAMES = new Set(["TimeoutError", "AbortError", "RequestTimeout"]);

function fromAws(error: object): boolean {
  const { name, code } = error as { name?: unknown; code?: unknown };
  return "$metadata" in error || NETWORK_NAMES.has(String(name)) || /^E[A-Z]+$/.test(String(code));
}

/**
 * The problem a failed read answers with (docs/reading.md#the-http-read-api). Pure:
 * - the reader's InvalidReadInput: a 400 naming its `parameter` (never read from the message);
 * - AWS throttling, keys DynamoDB left unprocessed past the reader's backoff
 *   (ThrottledReadError), a failed call: a 503, try again;
 * - anything else is a 500: a missing table (the reader's TableNotFoundError: a wrong
 *   TABLE_NAME, which no retry mends), denied access, an unreadable item, a bug.
 * A 5xx body says nothing of the cause; the log has it.
 */
export function failureOf(error: unknown): Problem {
  if (error instanceof InvalidReadInput) return problemOf("invalidParameter", error.message, error.parameter);
  if (
    error instanceof ThrottledReadError ||
    (typeof error === "object" && error !== null && fromAws(error) && classifyError(error) === "transient")
  )
    return problemOf("unavailable", "the rewards table could not be read just now; try again shortly");
  return problemOf("internal", "the request could not be answered; the failure is in the read API's log");
}
