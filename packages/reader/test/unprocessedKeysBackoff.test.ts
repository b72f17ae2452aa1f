import { describe, expect, it } from "vitest";
import { UNPROCESSED_KEYS_BACKOFF, waitBeforeAsking } from "../src/unprocessedKeysBackoff";

const highest = () => 0.999_999;

describe("waitBeforeAsking: full jitter under a doubling ceiling, bounded by calls and time", () => {
  it("the bound: 8 calls, ceilings from 25 ms doubling up to 500, no wait past 1 s", () => {
    expect(UNPROCESSED_KEYS_BACKOFF).toEqual({
      maxCalls: 8,
      baseDelayMs: 25,
      maxDelayMs: 500,
      budgetMs: 1000,
    });
  });

  it("draws each wait uniformly below its ceiling: 25, 50, 100, 200, 400, 500, 500 ms", () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((calls) => waitBeforeAsking(calls, 0, highest));
    expect(ceilings).toEqual([24, 49, 99, 199, 399, 499, 499]);
    expect([1, 2, 7].map((calls) => waitBeforeAsking(calls, 0, () => 0.5))).toEqual([12, 25, 250]);
    expect(waitBeforeAsking(3, 0, () => 0)).toBe(0);
  });

  it("gives up after the 8th call, however little time has passed", () => {
    expect(waitBeforeAsking(7, 0, () => 0)).toBe(0);
    expect(waitBeforeAsking(8, 0, () => 0)).toBeUndefined();
    expect(waitBeforeAsking(9, 0, () => 0)).toBeUndefined();
  });

  it("gives up when the wait would end past 1 s after the first call began", () => {
    // The 5th wait drawn at 399: 600 ms gone, it ends at 999 and is waited; 603 ms gone, it would end at 1,002.
    expect(waitBeforeAsking(5, 600, highest)).toBe(399);
    expect(waitBeforeAsking(5, 603, highest)).toBeUndefined();
    expect(waitBeforeAsking(5, 1000, () => 0)).toBe(0);
    expect(waitBeforeAsking(5, 1001, () => 0)).toBeUndefined();
  });

  it("takes another policy", () => {
    const policy = { maxCalls: 3, baseDelayMs: 10, maxDelayMs: 15, budgetMs: 100 };
    expect([1, 2, 3].map((calls) => waitBeforeAsking(calls, 0, highest, policy))).toEqual([9, 14, undefined]);
  });
});
