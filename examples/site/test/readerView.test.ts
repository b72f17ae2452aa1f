import { describe, expect, it } from "vitest";
import { awardFor, readerView } from "../src/readerView";
import { achievementsOf, awardOf, awardsOf, boardOf, profileOf } from "./fixtures";

describe("awardFor", () => {
  it("says what each type of award was for, in words", () => {
    expect(awardFor({ type: "article.completed", data: { articleSlug: "tides" } })).toBe("Finished “tides”");
    expect(awardFor({ type: "article.shared", data: { articleSlug: "tides", channel: "email" } })).toBe(
      "Shared “tides” on email",
    );
    expect(awardFor({ type: "streak.day", data: { day: "2026-12-03" } })).toBe("Read on 2026-12-03");
    expect(awardFor({ type: "signup.completed", data: {} })).toBe("Signed up");
    expect(awardFor({ type: "quiz.passed", data: { quiz: "q1" } })).toBe("quiz.passed");
  });
});

describe("readerView", () => {
  const view = readerView({
    profile: profileOf(),
    awards: awardsOf(
      awardOf({ id: "g3", xp: 10, requestedXp: 20 }),
      awardOf({ id: "g2", revokedAt: "2026-12-04T11:00:00.000Z", revokedReason: "refund" }),
      awardOf({ id: "g1", revokedAt: "2026-12-04T11:00:00.000Z" }),
    ),
    achievements: achievementsOf("first-article"),
    board: boardOf({ rank: 1, userId: "bob", xp: 200 }, { rank: 2, userId: "ann", xp: 170 }),
  });

  it("puts the level bar between the level's floor and the next one's", () => {
    expect(view.level).toEqual({ level: 2, xpFloor: 100, xpNext: 250, intoLevel: 70, levelSpan: 150 });
    expect(view.xp).toBe(170);
  });

  it("keeps a capped award's requested XP, and of a revoked award only that it was revoked (not the operator's reason)", () => {
    expect(view.awards).toEqual([
      {
        id: "g3",
        forWhat: "Finished “how-to-read”",
        earnedOn: "2026-12-04",
        xp: 10,
        requestedXp: 20,
        revoked: false,
      },
      { id: "g2", forWhat: "Finished “how-to-read”", earnedOn: "2026-12-04", xp: 20, revoked: true },
      { id: "g1", forWhat: "Finished “how-to-read”", earnedOn: "2026-12-04", xp: 20, revoked: true },
    ]);
    expect(JSON.stringify(view)).not.toContain("refund");
  });

  it("marks the reader's own row on the board and keeps their week from the profile", () => {
    expect(view.board).toEqual({
      week: "2026-W49",
      entries: [
        { rank: 1, userId: "bob", xp: 200, isReader: false },
        { rank: 2, userId: "ann", xp: 170, isReader: true },
      ],
      reader: { week: "2026-W49", xp: 170, rank: 2 },
    });
  });
});
