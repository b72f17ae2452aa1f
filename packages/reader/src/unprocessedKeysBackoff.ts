/**
 * How long the reader keeps asking for the keys a BatchGetItem left unprocessed (DynamoDB's
 * answer to throttling; docs/reading.md#errors): exponential backoff with full jitter, bounded
 * by calls and by time. Pure: the caller brings the clock and the randomness.
 */
export interface UnprocessedKeysBackoff {
  /** BatchGetItem calls in all, the first included. */
  maxCalls: number;
  /** The first wait's ceiling; each next one doubles it… */
  baseDelayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** No wait starts that would end later than this after the first call began. */
  budgetMs: number;
}

/**
 * 8 calls at most, and no more than 1 s of waiting: the ceilings 25, 50, 100, 200, 400, 500,
 * 500 ms, each wait uniformly random below its ceiling. Keys unprocessed for 50 ms are waited
 * out but for about 1 chance in 10 million (all seven waits drawn so near 0 that they add up to
 * less than 50 ms, the calls' own time not counted); the read API's timeout is 10 s.
 */
export const UNPROCESSED_KEYS_BACKOFF: UnprocessedKeysBackoff = {
  maxCalls: 8,
  baseDelayMs: 25,
  maxDelayMs: 500,
  budgetMs: 1000,
};

/**
 * The wait (ms) before asking again, after `calls` calls (1, 2, …) and `elapsedMs` since the
 * first began; undefined when the bound is reached and the reader gives up. `random` is in
 * [0, 1), as Math.random.
 */
export function waitBeforeAsking(
  calls: number,
  elapsedMs: number,
  random: () => number,
  policy: UnprocessedKeysBackoff = UNPROCESSED_KEYS_BACKOFF,
): number | undefined {
  if (calls >= policy.maxCalls) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (calls - 1));
  const wait = Math.floor(random() * ceiling);
  return elapsedMs + wait > policy.budgetMs ? undefined : wait;
}
