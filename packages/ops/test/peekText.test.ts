import type { ParkedMessage } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { peekText, wrapText } from "../src/dlq/peekText";

describe("wrapText: every character kept, no line past the width", () => {
  it("breaks at spaces, the first line after `first`, the others after `rest`", () => {
    expect(wrapText("the profile of user broken was refused by DynamoDB", 20, "why: ", "     ")).toEqual([
      "why: the profile of",
      "     user broken was",
      "     refused by",
      "     DynamoDB",
    ]);
  });

  it("splits a word longer than a line, counting characters (code points), not UTF-16 units", () => {
    expect(wrapText("ab 🙂🙂🙂🙂🙂🙂🙂 c", 6, "", "> ")).toEqual(["ab", "> 🙂🙂🙂🙂", "> 🙂🙂🙂", "> c"]);
    expect(wrapText("0123456789", 4)).toEqual(["0123", "4567", "89"]);
    expect(wrapText("🙂🙂 🙂🙂", 5)).toEqual(["🙂🙂 🙂🙂"]);
  });

  it("keeps text that fits as it is, and an empty text as its prefix alone", () => {
    expect(wrapText("fits exactly", 12)).toEqual(["fits exactly"]);
    expect(wrapText("", 10, "why: ")).toEqual(["why: "]);
    expect(wrapText("  spaced\n\nout  ", 40)).toEqual(["spaced out"]);
  });

  it("loses nothing of a long reason, whatever the width", () => {
    const reason = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    for (const width of [18, 37, 80, 200]) {
      const lines = wrapText(reason, width, "  reason: ", "          ");
      expect(lines.every((line) => [...line].length <= width)).toBe(true);
      expect(lines.map((line) => line.slice(10)).join(" ")).toBe(reason);
    }
  });
});

describe("peekText", () => {
  const message: ParkedMessage = {
    messageId: "m-1",
    sourceMessageId: "src-1",
    error: "rejected",
    reason:
      'the profile of user "broken" (USER#broken) was refused: An operand in the update expression has an incorrect data type',
    parkedAt: "2026-12-01T09:09:19.413Z",
    firstSentAtAttribute: true,
    replayCount: 0,
    type: "article.completed",
    userId: "broken",
    receiveCount: 1,
    body: '{"specversion":"1.0","id":"evt-c9","source":"/reader/web","type":"article.completed"}',
  };

  it("shows each message, its whole reason wrapped to the width, and its body on one line", () => {
    expect(
      peekText([message, { ...message, sourceMessageId: "src-2", reason: "short", type: undefined }], 60),
    ).toBe(
      [
        "src-1 rejected: article.completed, user broken, parked at",
        "  2026-12-01T09:09:19.413Z",
        '  reason: the profile of user "broken" (USER#broken) was',
        "          refused: An operand in the update expression has",
        "          an incorrect data type",
        '  body:   {"specversion":"1.0","id":"evt-c9","source":"/rea…',
        "",
        "src-2 rejected: no type, user broken, parked at",
        "  2026-12-01T09:09:19.413Z",
        "  reason: short",
        '  body:   {"specversion":"1.0","id":"evt-c9","source":"/rea…',
        "",
      ].join("\n"),
    );
  });
});
