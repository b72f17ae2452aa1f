import { describe, expect, it } from "vitest";
import { progressFor } from "../src/runtime/progress";

function stream() {
  const writes: string[] = [];
  return {
    writes,
    stream: { write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WritableStream,
  };
}

describe("progressFor", () => {
  it("reports nothing when quiet (--json)", () => {
    const { stream: s } = stream();
    expect(progressFor(true, "replay", { terminal: true, stream: s }).onProgress).toBeUndefined();
  });

  it("off a terminal, is silent, or writes a line at most every linesEveryMs", () => {
    const { writes, stream: s } = stream();
    progressFor(false, "replay", { terminal: false, stream: s }).onProgress?.(1, 2);
    expect(writes).toEqual([]);
    const lines = progressFor(false, "processed", { terminal: false, linesEveryMs: 60_000, stream: s });
    lines.onProgress?.(1, 10);
    lines.onProgress?.(2, 10);
    lines.stop();
    expect(writes).toEqual(["  processed 1 of 10\n"]);
  });
});
