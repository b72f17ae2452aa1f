import { describe, expect, it } from "vitest";
import { type EventPattern, matchesAnyPattern, matchesPattern } from "../src/domain";

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

  it("matches a string that begins with a `prefix`, beside exact strings", () => {
    const pattern = { sk: ["IDEM", { prefix: "ACHIEVEMENT#" }] };
    expect(matchesPattern({ sk: "IDEM" }, pattern)).toBe(true);
    expect(matchesPattern({ sk: "ACHIEVEMENT#first-article" }, pattern)).toBe(true);
    expect(matchesPattern({ sk: "ACHIEVEMENT#" }, pattern)).toBe(true);
    expect(matchesPattern({ sk: "X-ACHIEVEMENT#first-article" }, pattern)).toBe(false);
    expect(matchesPattern({ sk: "IDEMX" }, pattern)).toBe(false);
    expect(matchesPattern({ sk: ["ACHIEVEMENT#a"] }, pattern)).toBe(false);
    expect(matchesPattern({}, pattern)).toBe(false);
  });
});

describe("matchesAnyPattern", () => {
  it("is true when one of the patterns matches (Lambda ORs a mapping's filters)", () => {
    const patterns: EventPattern[] = [{ a: ["x"] }, { b: ["y"] }];
    expect(matchesAnyPattern({ a: "x" }, patterns)).toBe(true);
    expect(matchesAnyPattern({ b: "y" }, patterns)).toBe(true);
    expect(matchesAnyPattern({ a: "y", b: "x" }, patterns)).toBe(false);
    expect(matchesAnyPattern({ a: "x" }, [])).toBe(false);
  });
});
