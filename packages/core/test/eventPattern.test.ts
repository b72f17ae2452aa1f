import { describe, expect, it } from "vitest";
import { matchesPattern } from "../src/domain";

describe("matchesPattern", () => {
  it("matches nested fields against lists of exact strings", () => {
    const pattern = { a: ["x", "y"], b: { c: ["z"] } };
    expect(matchesPattern({ a: "y", b: { c: "z" }, d: 1 }, pattern)).toBe(true);
    expect(matchesPattern({ a: "w", b: { c: "z" } }, pattern)).toBe(false);
    expect(matchesPattern({ a: "x", b: { c: "q" } }, pattern)).toBe(false);
    expect(matchesPattern({ a: "x" }, pattern)).toBe(false);
    expect(matchesPattern({ a: ["x"], b: { c: "z" } }, pattern)).toBe(false);
    expect(matchesPattern(undefined, pattern)).toBe(false);
    expect(matchesPattern(undefined, {})).toBe(true);
  });
});
