import { describe, expect, it } from "vitest";
import { QUOTE_LIMIT, quoted, withInputsQuoted } from "../src/quote";

describe("quoted", () => {
  it("keeps an input of up to 64 characters whole, and cuts a longer one to its first 64 and …", () => {
    expect(quoted("ann")).toBe("ann");
    expect(quoted("a".repeat(64))).toBe("a".repeat(64));
    expect(quoted("u".repeat(257))).toBe(`${"u".repeat(64)}…`);
    expect(QUOTE_LIMIT).toBe(64);
  });

  it("counts characters, not UTF-16 units, and never cuts a pair in half", () => {
    const emoji = "📚".repeat(70);
    expect(quoted(emoji)).toBe(`${"📚".repeat(64)}…`);
    expect(quoted("📚".repeat(64))).toBe("📚".repeat(64));
  });
});

describe("withInputsQuoted", () => {
  it("quotes a long input at most 64 characters long wherever a text repeats it, as it is or JSON-escaped", () => {
    const id = `${"u".repeat(250)}"\\x`;
    const detail = `userId: at most 256 characters, not ${JSON.stringify(id)}; again: ${id}`;
    const shown = withInputsQuoted(detail, [id, undefined]);
    expect(shown).not.toMatch(/u{65}/);
    expect(shown).toBe(`userId: at most 256 characters, not "${"u".repeat(64)}…"; again: ${"u".repeat(64)}…`);
  });

  it("leaves a text that quotes short inputs, or already less of a long one, as it is", () => {
    expect(withInputsQuoted('timeZone: not "Mars/Olympus"', ["ann", "Mars/Olympus"])).toBe(
      'timeZone: not "Mars/Olympus"',
    );
    const cut = `userId: too long ("${"u".repeat(64)}…", 257 characters)`;
    expect(withInputsQuoted(cut, ["u".repeat(257)])).toBe(cut);
  });
});
