/**
 * The machine's clock as AWS's answers correct it, so what an operator stamps — a revocation's
 * `revokedAt`, a repair's `updatedAt`, a rules version's `publishedAt` and the campaigns judged at
 * it — sits where the awards' (Lambda's clock) put them (docs/reading.md#when-exactly).
 * The SDK keeps the offset it last read off an answer's `Date` header (`systemClockOffset`),
 * which has whole seconds: within `CLOCK_OFFSET_RESOLUTION_MS` of 0 it is the header's
 * rounding, not skew, and the machine's clock (in step, to the millisecond) is kept.
 */
export const CLOCK_OFFSET_RESOLUTION_MS = 2_000;

export function awsClock(dynamo: { config?: { systemClockOffset?: number } }): () => number {
  return () => {
    const offset = dynamo.config?.systemClockOffset ?? 0;
    return Date.now() + (Math.abs(offset) > CLOCK_OFFSET_RESOLUTION_MS ? offset : 0);
  };
}
