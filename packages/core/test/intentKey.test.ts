import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardKey, intentKey, MAX_INTENT_KEY_BYTES } from "../src/domain";

describe("intentKey", () => {
  it("joins the seed's example with #", () => {
    expect(intentKey(["user123", "post-slug", "article.completed"])).toBe(
      "user123#post-slug#article.completed",
    );
  });

  it("escapes % before #, so escapes cannot collide with text", () => {
    expect(intentKey(["a#b", "c"])).toBe("a%23b#c");
    expect(intentKey(["a%23b", "c"])).toBe("a%2523b#c");
    expect(intentKey(["a", "b#c"])).not.toBe(intentKey(["a#b", "c"]));
    expect(intentKey(["%", "#"])).toBe("%25#%23");
  });

  it("distinct part lists never share a key", () => {
    const part = fc.string({ unit: fc.constantFrom("a", "#", "%", "2", "3", "5", "é"), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.array(part, { minLength: 1, maxLength: 4 }),
        (a, b) => {
          fc.pre(JSON.stringify(a) !== JSON.stringify(b));
          expect(intentKey(a)).not.toBe(intentKey(b));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("keeps a key of exactly 1,024 UTF-8 bytes and hashes one byte more", () => {
    const exact = "x".repeat(MAX_INTENT_KEY_BYTES - 2);
    expect(intentKey([exact, "y"])).toBe(`${exact}#y`);
    const over = `${exact}z`;
    const expected = createHash("sha256").update(`${over}#y`).digest("base64url");
    expect(intentKey([over, "y"])).toBe(`sha256:${expected}`);
    expect(intentKey([over, "y"])).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
  });

  it("counts bytes, not characters, and measures the escaped key", () => {
    const euros = "€".repeat(341); // 1,023 bytes
    expect(intentKey([euros])).toBe(euros);
    expect(intentKey([`${euros}x`])).toBe(`${euros}x`); // 1,024 bytes
    expect(intentKey([`${euros}xy`])).toMatch(/^sha256:/);
    const escapedOver = "#".repeat(342); // 342 chars, 1,026 bytes once escaped
    expect(intentKey([escapedOver])).toMatch(/^sha256:/);
  });

  it("guard keys are IDEM#<key> / IDEM", () => {
    expect(guardKey("user123#post-slug#article.completed")).toEqual({
      pk: "IDEM#user123#post-slug#article.completed",
      sk: "IDEM",
    });
  });
});
