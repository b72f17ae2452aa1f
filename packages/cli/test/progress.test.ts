import { afterEach, describe, expect, it, vi } from "vitest";
import { progressFor } from "../src/progress";

afterEach(() => vi.restoreAllMocks());

describe("progressFor", () => {
  it("reports nothing when quiet (--json)", () => {
    expect(progressFor(true, "replay").onProgress).toBeUndefined();
  });

  it("off a terminal, is silent, or writes a line at most every linesEveryMs", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    progressFor(false, "replay", { terminal: false }).onProgress?.(1, 2);
    expect(write).not.toHaveBeenCalled();
    const lines = progressFor(false, "processed", { terminal: false, linesEveryMs: 60_000 });
    lines.onProgress?.(1, 10);
    lines.onProgress?.(2, 10);
    lines.stop();
    expect(write.mock.calls).toEqual([["  processed 1 of 10\n"]]);
  });
});
