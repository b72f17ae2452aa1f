import { describe, expect, it } from "vitest";
import { QUOTED_INPUT_CHARACTERS, quoteInput } from "../src/domain";

describe("quoteInput: an input as a message quotes it, at most its first 64 characters", () => {
  it("quotes a string of up to 64 characters whole, in JSON's quotes", () => {
    expect(QUOTED_INPUT_CHARACTERS).toBe(64);
    expect(quoteInput("50")).toBe('"50"');
    expect(quoteInput("")).toBe('""');
    expect(quoteInput('a "b"\n')).toBe('"a \\"b\\"\\n"');
    expect(quoteInput("x".repeat(64))).toBe(`"${"x".repeat(64)}"`);
  });

  it("past 64 characters, the first 64, an ellipsis and the whole length", () => {
    const id = `${"a".repeat(60)}bcdefghij${"z".repeat(188)}`;
    expect([...id]).toHaveLength(257);
    expect(quoteInput(id)).toBe(`"${"a".repeat(60)}bcde…" (257 characters)`);
    expect(quoteInput("x".repeat(65))).toBe(`"${"x".repeat(64)}…" (65 characters)`);
  });

  it("counts characters as code points: a character outside the BMP is one, and never cut in half", () => {
    const emoji = "😀".repeat(70);
    expect(quoteInput(emoji)).toBe(`"${"😀".repeat(64)}…" (70 characters)`);
    expect(quoteInput("😀".repeat(64))).toBe(`"${"😀".repeat(64)}"`);
  });

  it("a lone surrogate stays visible as JSON spells it", () => {
    expect(quoteInput("a\ud800")).toBe('"a\\ud800"');
  });

  it("anything else: as it prints, or as JSON, shortened the same way", () => {
    expect(quoteInput(0)).toBe("0");
    expect(quoteInput(2.5)).toBe("2.5");
    expect(quoteInput(undefined)).toBe("undefined");
    expect(quoteInput(null)).toBe("null");
    expect(quoteInput(true)).toBe("true");
    expect(quoteInput({ a: 1 })).toBe('{"a":1}');
    expect(quoteInput([1, 2])).toBe("[1,2]");
    expect(quoteInput(10n)).toBe("10");
    expect(quoteInput({ big: 1n })).toBe("[object Object]");
    expect(quoteInput(Array.from({ length: 40 }, (_, i) => i))).toBe(
      `${JSON.stringify(Array.from({ length: 40 }, (_, i) => i)).slice(0, 64)}… (111 characters)`,
    );
  });
});
