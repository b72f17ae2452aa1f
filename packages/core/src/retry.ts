import { setTimeout as delay } from "node:timers/promises";
import { type Deadline, NO_DEADLINE } from "./deadline";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts later than this after the first attempt. */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 25,
  maxDelayMs: 1000,
  maxElapsedMs: 5000,
};

export interface RetryHooks {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  clock?: () => number;
  onRetry?: ((error: unknown, attempt: number, delayMs: number) => void) | undefined;
}

/** "Full jitter": a uniformly random wait up to the capped exponential step. */
export function fullJitterDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

export class RetriesExhaustedError extends Error {
  override readonly name = "RetriesExhaustedError";
  constructor(
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(`gave up after ${attempts} attempt(s)`);
  }
}

/**
 * Runs `operation` until it succeeds, `shouldRetry` says no, or the policy's attempts,
 * elapsed time or `deadline` (no retry starts whose wait would end past it) run out. Errors that are not retried propagate unchanged;
 * running out wraps the last error in RetriesExhaustedError.
 */
export async function retry<T>(
  operation: (attempt: number) => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  hooks: RetryHooks = {},
  deadline: Deadline = NO_DEADLINE,
): Promise<T> {
  const sleep = hooks.sleep ?? ((ms: number) => delay(ms));
  const random = hooks.random ?? Math.random;
  const clock = hooks.clock ?? Date.now;
  const stopAt = Math.min(clock() + policy.maxElapsedMs, deadline);
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!shouldRetry(error)) throw error;
      const wait = fullJitterDelay(attempt, policy, random);
      if (attempt >= policy.maxAttempts || clock() + wait > stopAt) {
        throw new RetriesExhaustedError(attempt, error);
      }
      hooks.onRetry?.(error, attempt, wait);
      await sleep(wait);
    }
  }
}
