import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Attributes,
  buildParkedMessage,
  intentKey,
  MAX_MESSAGE_BYTES,
  messageSize,
  PARK_ATTRIBUTES,
  parkReason,
  TooLargeToPark,
} from "../src/domain";

/**
 * Every limit on the guarantee's path is counted in UTF-8 bytes (SQS, DynamoDB keys) or in
 * characters (the DLQ reason, docs/design.md): code points, which a cut must never split. ASCII
 * text cannot tell bytes from UTF-16 units from code points; these texts can:
 * "é" is 1 unit and 2 bytes, "€" 1 unit and 3 bytes, "😀" 2 units (a surrogate pair) and 4 bytes.
 */
const EMOJI = "😀";
const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const codePoints = (text: string) => [...text].length;

/**
 * What SQS counts for a message (its 1 MiB, docs/events.md#the-message): body, and each
 * attribute's name, type and value, in UTF-8.
 */
function sentBytes(body: string, attributes: Attributes): number {
  let total = bytes(body);
  for (const [name, value] of Object.entries(attributes)) {
    total += bytes(name) + bytes(value.DataType ?? "");
    if (value.StringValue !== undefined) total += bytes(value.StringValue);
    if (value.BinaryValue !== undefined) total += Buffer.from(value.BinaryValue).toString("base64").length;
  }
  return total;
}

describe("rewards.reason: at most 1,000 characters, cut on a code point", () => {
  it("1,000 emoji (2,000 UTF-16 units, 4,000 bytes) are 1,000 characters: kept whole", () => {
    const reason = EMOJI.repeat(1000);
    expect(parkReason("invalid_event", reason)).toEqual({ code: "invalid_event", reason });
  });

  it("999 ASCII and one emoji (1,001 UTF-16 units) are 1,000 characters: kept whole", () => {
    const reason = `${"a".repeat(999)}${EMOJI}`;
    expect(parkReason("invalid_event", reason).reason).toBe(reason);
  });

  it("1,001 emoji are cut to 999 and an ellipsis: 1,000 characters, well-formed", () => {
    const clipped = parkReason("rejected", EMOJI.repeat(1001)).reason;
    expect(clipped).toBe(`${EMOJI.repeat(999)}…`);
    expect(codePoints(clipped)).toBe(1000);
    expect(clipped.isWellFormed()).toBe(true);
  });

  it("a cut that would fall inside a surrogate pair takes the whole character or none", () => {
    // 998 ASCII then emoji: a cut at UTF-16 unit 999 would split the first emoji.
    const clipped = parkReason("rejected", `${"a".repeat(998)}${EMOJI.repeat(5)}`).reason;
    expect(clipped).toBe(`${"a".repeat(998)}${EMOJI}…`);
    expect(clipped.isWellFormed()).toBe(true);
  });

  it("property: any well-formed reason comes back well-formed, at most 1,000 characters, a prefix of itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 900, maxLength: 1200 }), (reason) => {
        fc.pre(reason.isWellFormed());
        const clipped = parkReason("invalid_event", reason).reason;
        expect(clipped.isWellFormed()).toBe(true);
        expect(codePoints(clipped)).toBeLessThanOrEqual(1000);
        if (codePoints(reason) <= 1000) expect(clipped).toBe(reason);
        else expect(reason.startsWith(clipped.slice(0, -1))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("messageSize: the bytes SQS counts", () => {
  it("counts UTF-8 bytes of the body and of every attribute's name, type and value", () => {
    const attributes: Attributes = {
      [`n${EMOJI}`]: { DataType: "String", StringValue: `€${EMOJI}é` },
      raw: { DataType: "Binary", BinaryValue: new Uint8Array([1, 2, 3, 4]) },
    };
    // body 4+3 = 7; "n😀"+"String"+"€😀é" = 5+6+9 = 20; "raw"+"Binary"+base64(4 bytes) = 3+6+8 = 17
    expect(messageSize(`${EMOJI}€`, attributes)).toBe(44);
  });

  it("property: agrees with Buffer.byteLength of what is sent", () => {
    const attribute = fc.record({
      DataType: fc.constantFrom("String", "Number", "String.custom"),
      StringValue: fc.string({ unit: "binary", maxLength: 40 }),
    });
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.dictionary(fc.string({ unit: "binary", minLength: 1, maxLength: 10 }), attribute, { maxKeys: 10 }),
        (body, attributes) => {
          expect(messageSize(body, attributes)).toBe(sentBytes(body, attributes));
        },
      ),
    );
  });
});

describe("the parked message fits SQS's 1 MiB (docs/design.md)", () => {
  const now = new Date("2026-12-01T10:00:00.000Z");
  const source = (body: string, attributes: Attributes = {}) => ({
    body,
    messageId: `m-${EMOJI}`,
    attributes,
    firstSentAt: "2026-12-01T09:00:00.000Z",
  });
  const str = (value: string) => ({ DataType: "String", StringValue: value });

  it("an emoji body just under the limit: the reason is cut in bytes, never past 1 MiB, never mid-character", () => {
    // 262,000 emoji = 524,000 UTF-16 units but 1,048,000 bytes: only 576 bytes are left.
    const body = EMOJI.repeat(262_000);
    const message = buildParkedMessage(
      source(body),
      parkReason("invalid_event", EMOJI.repeat(900)),
      now,
      false,
    );
    const size = sentBytes(message.MessageBody, message.MessageAttributes);
    expect(size).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const reason = message.MessageAttributes[PARK_ATTRIBUTES.reason]?.StringValue ?? "";
    expect(reason.isWellFormed()).toBe(true);
    expect(reason.endsWith("…")).toBe(true);
    expect(reason.length).toBeGreaterThan(1);
    expect(EMOJI.repeat(900).startsWith(reason.slice(0, -1))).toBe(true);
    // As long as fits: one more emoji would not.
    expect(size + bytes(EMOJI)).toBeGreaterThan(MAX_MESSAGE_BYTES);
    expect(message.MessageAttributes[PARK_ATTRIBUTES.error]?.StringValue).toBe("invalid_event");
    expect(message.MessageAttributes[PARK_ATTRIBUTES.sourceMessageId]?.StringValue).toBe(`m-${EMOJI}`);
  });

  it("drops original attributes and the overflow first, then shortens the reason; error and source id stay", () => {
    const originals: Attributes = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`attr${i}`, str(EMOJI.repeat(2_000))]),
    );
    // The body leaves room for the reason but not for any 8,000-byte original.
    const body = "x".repeat(MAX_MESSAGE_BYTES - 3_000);
    const message = buildParkedMessage(
      source(body, originals),
      parkReason("invalid_event", "data.userId: Too small"),
      now,
      false,
    );
    const names = Object.keys(message.MessageAttributes).sort();
    expect(names).toEqual(
      [
        PARK_ATTRIBUTES.error,
        PARK_ATTRIBUTES.firstSentAt,
        PARK_ATTRIBUTES.parkedAt,
        PARK_ATTRIBUTES.reason,
        PARK_ATTRIBUTES.sourceMessageId,
      ].sort(),
    );
    const reason = message.MessageAttributes[PARK_ATTRIBUTES.reason]?.StringValue ?? "";
    // The reason is whole, and names what was dropped.
    expect(reason.startsWith("data.userId: Too small (dropped to fit SQS's 1 MiB limit: ")).toBe(true);
    for (let i = 0; i < 9; i++) expect(reason).toContain(`attr${i}`);
    expect(sentBytes(message.MessageBody, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });

  it("an original that would fit only at the reason's expense is dropped, and the reason kept whole", () => {
    const reasonText = `data: ${"r".repeat(900)}`;
    const original = str("o".repeat(1_500));
    // Room for the original or for the whole reason, not both.
    const body = "x".repeat(MAX_MESSAGE_BYTES - 2_300);
    const message = buildParkedMessage(
      source(body, { big: original }),
      parkReason("invalid_event", reasonText),
      now,
      false,
    );
    expect(message.MessageAttributes.big).toBeUndefined();
    expect(message.MessageAttributes[PARK_ATTRIBUTES.reason]?.StringValue).toBe(
      `${reasonText} (dropped to fit SQS's 1 MiB limit: big)`,
    );
  });

  it("keeps original attributes that fit and the whole reason when everything fits", () => {
    const originals: Attributes = { type: str("article.completed"), note: str(EMOJI.repeat(100)) };
    const message = buildParkedMessage(
      source("{}", originals),
      parkReason("invalid_json", "nope"),
      now,
      false,
    );
    expect(message.MessageAttributes.type).toEqual(str("article.completed"));
    expect(message.MessageAttributes.note).toEqual(str(EMOJI.repeat(100)));
    expect(message.MessageAttributes[PARK_ATTRIBUTES.reason]).toEqual(str("nope"));
  });

  it("a body too large for even error and source id is refused (the message is failed)", () => {
    expect(() =>
      buildParkedMessage(source(EMOJI.repeat(262_144)), parkReason("invalid_json", "x"), now, false),
    ).toThrow(TooLargeToPark);
  });

  it("property: never over 1 MiB as sent; error and source id always kept; originals kept whole or not at all", () => {
    const value = fc.string({ unit: fc.constantFrom("a", "é", "€", EMOJI), maxLength: 3_000 });
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_MESSAGE_BYTES - 40_000, max: MAX_MESSAGE_BYTES - 40 }),
        fc.array(value, { maxLength: 12 }),
        // At most 900 characters: the reason and the start of what was dropped always fit in 1,000.
        fc.string({ unit: fc.constantFrom("r", "é", EMOJI), minLength: 1, maxLength: 900 }),
        (bodyBytes, values, reasonText) => {
          const originals: Attributes = Object.fromEntries(values.map((v, i) => [`a${i}`, str(v)]));
          const body = `${EMOJI.repeat(Math.floor(bodyBytes / 4))}`;
          let message: ReturnType<typeof buildParkedMessage>;
          try {
            message = buildParkedMessage(
              source(body, originals),
              parkReason("rejected", reasonText),
              now,
              false,
            );
          } catch (error) {
            expect(error).toBeInstanceOf(TooLargeToPark);
            return;
          }
          const attributes = message.MessageAttributes;
          expect(sentBytes(message.MessageBody, attributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
          expect(Object.keys(attributes).length).toBeLessThanOrEqual(10);
          expect(message.MessageBody).toBe(body);
          expect(attributes[PARK_ATTRIBUTES.error]?.StringValue).toBe("rejected");
          expect(attributes[PARK_ATTRIBUTES.sourceMessageId]?.StringValue).toBe(`m-${EMOJI}`);
          const reason = attributes[PARK_ATTRIBUTES.reason]?.StringValue;
          if (reason !== undefined) expect(reason.isWellFormed()).toBe(true);
          for (const [name, original] of Object.entries(originals)) {
            if (attributes[name]) expect(attributes[name]).toEqual(original);
          }
          // The drop order: originals (and the overflow) go before the reason is shortened, so
          // while any original is kept the reason is whole (with, maybe, what was dropped).
          const keptOriginal =
            Object.keys(originals).some((name) => attributes[name]) ||
            attributes[PARK_ATTRIBUTES.overflow] !== undefined;
          if (keptOriginal) {
            expect(reason === reasonText || reason?.startsWith(`${reasonText} (dropped to fit`)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("intent keys at the 1,024-byte threshold (docs/events.md#duplicates-are-safe-the-intent-key)", () => {
  const hashed = (escaped: string) =>
    `sha256:${createHash("sha256").update(escaped, "utf8").digest("base64url")}`;

  it("an escaped key of exactly 1,024 UTF-8 bytes stays as it is; 1,025 bytes is hashed", () => {
    // "€" is 3 bytes and 1 UTF-16 unit: 340 of them and 4 more bytes of "#x#y" is 1,024 bytes, 344 units.
    const at = intentKey(["€".repeat(340), "x", "y"]);
    expect(at).toBe(`${"€".repeat(340)}#x#y`);
    expect(bytes(at)).toBe(1024);
    expect(intentKey(["€".repeat(340), "xx", "y"])).toBe(hashed(`${"€".repeat(340)}#xx#y`));
  });

  it("emoji count 4 bytes each: 256 of them are 1,024 bytes (512 UTF-16 units) and are hashed beside anything", () => {
    expect(intentKey([EMOJI.repeat(255), "abc"])).toBe(`${EMOJI.repeat(255)}#abc`);
    expect(intentKey([EMOJI.repeat(256), "a"])).toBe(hashed(`${EMOJI.repeat(256)}#a`));
  });

  it("the threshold is the escaped key's: # and % grow by two bytes each when escaped", () => {
    // 1,000 + 1 + 8 = 1,009 raw bytes, but each "#" is "%23": 1,000 + 1 + 24 = 1,025 escaped.
    const parts = ["a".repeat(1000), "########"];
    expect(intentKey(parts)).toBe(hashed(`${"a".repeat(1000)}#${"%23".repeat(8)}`));
    const percent = ["a".repeat(1000), "%%%%%%%"]; // 1,000 + 1 + 21 = 1,022 escaped: kept
    expect(intentKey(percent)).toBe(`${"a".repeat(1000)}#${"%25".repeat(7)}`);
  });

  it("hashes the escaped join: parts that differ only in where a # falls get different hashes", () => {
    const long = "u".repeat(1100);
    const a = intentKey([long, "x#y", "article.completed"]);
    const b = intentKey([`${long}#x`, "y", "article.completed"]);
    expect(a).toBe(hashed(`${long}#x%23y#article.completed`));
    expect(b).toBe(hashed(`${long}%23x#y#article.completed`));
    expect(a).not.toBe(b);
  });

  it("property: injective over arbitrary Unicode parts around the hash threshold", () => {
    const part = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.string({ unit: fc.constantFrom("#", "%", "2", "3", "5", "a", EMOJI, "€"), maxLength: 8 }),
    );
    // A padding part of 1,000–1,030 bytes puts the keys on either side of 1,024.
    const padding = fc
      .tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 3 }))
      .map(([emoji, ascii]) => `${"p".repeat(996 + ascii)}${EMOJI.repeat(emoji)}`);
    const parts = fc
      .tuple(padding, fc.array(part, { minLength: 1, maxLength: 3 }))
      .map(([p, rest]) => [p, ...rest]);
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        fc.pre(a.every((p) => p.isWellFormed()) && b.every((p) => p.isWellFormed()));
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        expect(intentKey(a)).not.toBe(intentKey(b));
      }),
      { numRuns: 500 },
    );
  });

  it("property: a key is either its escaped join (at most 1,024 bytes) or that join's hash", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        (parts) => {
          fc.pre(parts.every((p) => p.isWellFormed()));
          const escaped = parts.map((p) => p.replaceAll("%", "%25").replaceAll("#", "%23")).join("#");
          expect(intentKey(parts)).toBe(bytes(escaped) <= 1024 ? escaped : hashed(escaped));
        },
      ),
    );
  });
});
