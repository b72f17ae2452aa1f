import { describe, expect, it } from "vitest";
import { invocationDeadline, NO_DEADLINE, signalFor } from "../src/aws/deadline";

describe("the invocation's deadline", () => {
  it("no deadline gives no signal, and a context without a clock gives no deadline", () => {
    expect(signalFor(NO_DEADLINE, 1000)).toBeUndefined();
    expect(invocationDeadline(1000, Number.POSITIVE_INFINITY)).toBe(NO_DEADLINE);
  });

  it("stops 5 s before the end, or a quarter of a short budget before it, in whole milliseconds", () => {
    expect(invocationDeadline(1000, 30_000)).toBe(26_000);
    expect(invocationDeadline(1000.5, 7777)).toBe(Math.floor(1000.5 + 7777 - 1944.25));
    expect(invocationDeadline(0, 1999, 3)).toBe(1996);
  });

  it("a signal fires at the deadline, never after it; one already past fires at once", async () => {
    const past = signalFor(100, 200) as AbortSignal;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(past.aborted).toBe(true);
    expect(signalFor(Date.now() + 60_000)?.aborted).toBe(false);
  });
});
