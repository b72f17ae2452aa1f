import { describe, expect, it } from "vitest";
import { describeReplay, emptyReport, type ReportedMessage } from "../src/dlq/replayReport";

const judged = (messageId: string, rest: Partial<ReportedMessage> & Pick<ReportedMessage, "verdict">) => ({
  messageId,
  sourceMessageId: messageId,
  error: "rejected",
  ...rest,
});

describe("describeReplay, a dry run: the verdict of every message, whole", () => {
  it("lists each judged message after the counts: verdict, intent key, and why where there is a why", () => {
    const reason = `time 2026-08-01T00:00:00.000Z is too old: ${"x".repeat(300)}`;
    const report = {
      ...emptyReport(true, 0),
      replayed: 6,
      verdicts: { pay: 1, pay_part: 1, capped: 1, paid: 1, revoked: 0, stale: 1, invalid: 1 },
      judged: [
        judged("m1", { verdict: "pay", intentKey: "u1#a#article.completed" }),
        judged("m2", { verdict: "pay_part", intentKey: "u1#b#article.completed", xp: 10, requested: 20 }),
        judged("m3", { verdict: "capped", intentKey: "u1#c#article.completed", xp: 0, requested: 20 }),
        judged("m4", { verdict: "paid", intentKey: "u1#d#article.completed" }),
        judged("m5", { verdict: "stale", intentKey: "u1#e#article.completed", reason }),
        judged("m6", { verdict: "invalid", reason: "not JSON: Unexpected token" }),
      ],
    };
    expect(describeReplay(report as Parameters<typeof describeReplay>[0])).toBe(
      [
        "Replayed now, the matching messages would: 1 would pay, 1 would pay part (cap), 1 capped (would pay 0), 1 already paid, 1 stale, 1 invalid.",
        "6 would be replayed (dry run: nothing moved), 0 extra copies would be deleted, 0 failed.",
        '  m1: would pay "u1#a#article.completed"',
        '  m2: would pay 10 of 20 (cap) "u1#b#article.completed"',
        '  m3: capped (would pay 0) "u1#c#article.completed"',
        '  m4: already paid "u1#d#article.completed"',
        `  m5: stale "u1#e#article.completed": ${reason}`,
        "  m6: invalid: not JSON: Unexpected token",
      ].join("\n"),
    );
  });

  it("a real replay lists no verdicts, only its counts", () => {
    expect(describeReplay({ ...emptyReport(false, 0), replayed: 2 })).toBe(
      "2 replayed, 0 extra copies deleted, 0 failed.",
    );
  });
});
