import { afterEach, describe, expect, it, vi } from "vitest";
import { invocationDeadline, retry, signalFor } from "../src/aws";
import { decodeEvent, epochMsOfRfc3339 } from "../src/domain";

/**
 * Edges a table of ordinary values misses: fractions of a millisecond and of a second,
 * where rounding instead of cutting lands past a bound (docs/events.md#event-time), a retry whose
 * wait (not its start) would cross the deadline, and text limits in characters.
 */
afterEach(() => vi.restoreAllMocks());

describe("instants are cut, never rounded", () => {
  it("an RFC 3339 fraction is cut to the millisecond: .9999 is still the same second", () => {
    expect(epochMsOfRfc3339("2026-12-01T00:00:00.9999Z")).toBe(Date.parse("2026-12-01T00:00:00.999Z"));
    expect(epochMsOfRfc3339("2026-12-01T00:00:59.9996+14:00")).toBe(Date.parse("2026-11-30T10:00:59.999Z"));
  });

  it("a deadline with a fractional start is the whole millisecond at or before it", () => {
    expect(invocationDeadline(1000.5, 100, 0)).toBe(1100);
    expect(invocationDeadline(1000, 100.9, 0)).toBe(1100);
  });

  it("an abort delay of 10.6 ms is 10 ms, so the call ends at or before the deadline", () => {
    const timeout = vi.spyOn(AbortSignal, "timeout");
    signalFor(1010.6, 1000);
    expect(timeout).toHaveBeenCalledWith(10);
  });
});

describe("retry and the deadline", () => {
  it("a retry whose wait would end past the deadline is not started", async () => {
    let attempts = 0;
    const slept: number[] = [];
    const failing = async () => {
      attempts++;
      throw new Error("throttled");
    };
    await expect(
      retry(failing, {
        shouldRetry: () => true,
        policy: { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 200, maxElapsedMs: 60_000 },
        deadline: 100,
        clock: () => 0,
        random: () => 0.99, // a 198 ms wait from 0: past the deadline at 100
        sleep: async (ms) => {
          slept.push(ms);
        },
      }),
    ).rejects.toThrow("gave up after 1 attempt(s)");
    expect([attempts, slept]).toEqual([1, []]);
  });
});

describe("text limits count characters (code points), not UTF-16 units", () => {
  const body = (userId: string) =>
    JSON.stringify({
      specversion: "1.0",
      id: "e",
      source: "/s",
      type: "signup.completed",
      data: { userId },
    });
  it("a userId of 256 emoji (512 UTF-16 units) is valid; 257 are not", () => {
    expect(decodeEvent(body("😀".repeat(256))).ok).toBe(true);
    expect(decodeEvent(body("😀".repeat(257))).ok).toBe(false);
  });
});
