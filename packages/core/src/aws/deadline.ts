/**
 * The instant (epoch ms) by which every AWS call of an invocation must have ended. One
 * value bounds the transaction, its retries and the DLQ send alike.
 */
export type Deadline = number;

export const NO_DEADLINE: Deadline = Number.POSITIVE_INFINITY;

/**
 * An AbortSignal that fires at `deadline`, or undefined for no deadline.
 * `AbortSignal.timeout` refuses a fractional delay (ERR_OUT_OF_RANGE), so the delay is
 * rounded down: the call ends at or before the deadline, never after it.
 */
export function signalFor(deadline: Deadline, now: number = Date.now()): AbortSignal | undefined {
  if (!Number.isFinite(deadline)) return undefined;
  return AbortSignal.timeout(Math.max(0, Math.floor(deadline - now)));
}

/**
 * When an invocation with `remainingMs` left must stop starting work: `marginMs` before its
 * end, or a quarter of a short budget. Whole milliseconds, whatever the inputs; no end
 * (Infinity) gives NO_DEADLINE.
 */
export function invocationDeadline(startedAt: number, remainingMs: number, marginMs?: number): Deadline {
  const margin = marginMs ?? Math.min(DEFAULT_SAFETY_MARGIN_MS, remainingMs / 4);
  return Math.floor(startedAt + remainingMs - margin);
}

const DEFAULT_SAFETY_MARGIN_MS = 5000;

/** What an invocation has left; a context without a clock (a hand-written test event, say) has no end. */
export function remainingMsOf(context?: { getRemainingTimeInMillis?: () => number }): number {
  return context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
}
