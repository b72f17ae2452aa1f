import { describe, expect, it } from "vitest";
import { fullJitterDelay, RetriesExhaustedError, type RetryPolicy, retry } from "../src/aws";

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 300, maxElapsedMs: 10_000 };

function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    options: {
      clock: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
      random: () => 0.5,
    },
  };
}

describe("retry", () => {
  it("full jitter is uniform up to the capped exponential step", () => {
    expect([1, 2, 3, 4].map((n) => fullJitterDelay(n, policy, () => 0.999))).toEqual([99, 199, 299, 299]);
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
  });

  it("retries retryable errors and returns the first success", async () => {
    const time = fakeTime();
    let calls = 0;
    const value = await retry(
      async () => {
        calls++;
        if (calls < 3) throw new Error("flaky");
        return "ok";
      },
      { shouldRetry: () => true, policy, ...time.options },
    );
    expect(value).toBe("ok");
    expect(time.sleeps).toEqual([50, 100]);
  });

  it("gives up after maxAttempts with the last error attached", async () => {
    const time = fakeTime();
    const failure = retry(async (n) => Promise.reject(new Error(`fail ${n}`)), {
      shouldRetry: () => true,
      policy,
      ...time.options,
    });
    await expect(failure).rejects.toBeInstanceOf(RetriesExhaustedError);
    await expect(failure).rejects.toMatchObject({ attempts: 4, cause: { message: "fail 4" } });
  });

  it("does not retry what shouldRetry refuses", async () => {
    const time = fakeTime();
    await expect(
      retry(async () => Promise.reject(new Error("bad")), {
        shouldRetry: () => false,
        policy,
        ...time.options,
      }),
    ).rejects.toThrow("bad");
    expect(time.sleeps).toEqual([]);
  });

  it("starts no retry past the deadline", async () => {
    const time = fakeTime();
    const failure = retry(async () => Promise.reject(new Error("slow")), {
      shouldRetry: () => true,
      policy,
      ...time.options,
      deadline: 120,
    });
    await expect(failure).rejects.toMatchObject({ attempts: 2 });
    expect(time.sleeps).toEqual([50]);
  });
});
