import { type Deadline, NO_DEADLINE } from "./deadline";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts later than this after the first attempt. */
  maxElapsedMs: number;
}

const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 25,
  maxDelayMs: 1000,
  maxElapsedMs: 5000,
};

export interface RetryOptions {
  /** Whether an error may pass on another try; errors it refuses propagate unchanged. */
  shouldRetry: (error: unknown) => boolean;
  policy?: RetryPolicy | undefined;
  /** No retry starts whose wait would end past this instant (epoch ms). */
  deadline?: Deadline | undefined;
  /** Epoch ms; the invocation's clock, so a test that pins it pins the retries too. */
  clock?: (() => number) | undefined;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
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
 * elapsed time or the deadline run out. Errors that are not retried propagate unchanged;
 * running out wraps the last error in RetriesExhaustedError.
 */
export async function retry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const clock = options.clock ?? Date.now;
  const stopAt = Math.min(clock() + policy.maxElapsedMs, options.deadline ?? NO_DEADLINE);
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!options.shouldRetry(error)) throw error;
      const wait = fullJitterDelay(attempt, policy, random);
      if (attempt >= policy.maxAttempts || clock() + wait > stopAt) {
        throw new RetriesExhaustedError(attempt, error);
      }
      options.onRetry?.(error, attempt, wait);
      await sleep(wait);
    }
  }
}
