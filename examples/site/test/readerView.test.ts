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
  const view = readerView(
    {
      profile: profileOf(),
      awards: awardsOf(
        awardOf({ id: "g3", xp: 10, requestedXp: 20 }),
        awardOf({ id: "g2", revokedAt: "2026-12-04T11:00:00.000Z", revokedReason: "refund" }),
        awardOf({ id: "g1", revokedAt: "2026-12-04T11:00:00.000Z" }),
      ),
      achievements: achievementsOf("first-article"),
      board: boardOf({ rank: 1, userId: "bob", xp: 200 }, { rank: 2, userId: "ann", xp: 170 }),
    },
    { timeZone: "UTC", timeZoneAsked: false, now: new Date("2026-12-04T12:00:00.000Z") },
  );

  it("puts the level bar between the level's floor and the next one's", () => {
    expect(view.level).toEqual({
      level: 2,
      xpFloor: 100,
      xpNext: 250,
      intoLevel: 70,
      levelSpan: 150,
      percent: 46.67,
    });
    expect(view.xp).toBe(170);
  });

  it("puts the ring's arc at 0 on a level's floor and short of 100 just below the next", () => {
    const at = (xp: number, level: { level: number; xpFloor: number; xpNext: number }) =>
      readerView(
        {
          profile: profileOf({ xp, level }),
          awards: awardsOf(),
          achievements: achievementsOf(),
          board: boardOf(),
        },
        { timeZone: "UTC", timeZoneAsked: false, now: new Date("2026-12-04T12:00:00.000Z") },
      ).level.percent;
    expect(at(0, { level: 1, xpFloor: 0, xpNext: 100 })).toBe(0);
    expect(at(100, { level: 2, xpFloor: 100, xpNext: 250 })).toBe(0);
    expect(at(249, { level: 2, xpFloor: 100, xpNext: 250 })).toBe(99.33);
    expect(at(15_000 + 3_999, { level: 11, xpFloor: 15_000, xpNext: 19_000 })).toBe(99.98);
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

  it("reads the streak against today in the zone: its day, its state and its sentence", () => {
    expect(view.streak).toMatchObject({
      current: 3,
      longest: 5,
      lastDay: "2026-12-04",
      today: "2026-12-04",
      state: "today",
    });
    const paris = readerView(
      { profile: profileOf(), awards: awardsOf(), achievements: achievementsOf(), board: boardOf() },
      { timeZone: "Europe/Paris", timeZoneAsked: true, now: new Date("2026-12-04T23:30:00.000Z") },
    );
    // Past midnight in Paris: the 4th is yesterday there (the API reads current 3: still alive).
    expect(paris.streak).toMatchObject({ today: "2026-12-05", state: "alive", flame: "waiting" });
    expect(paris.streak.sentence).toContain("(2026-12-05 in Europe/Paris)");
    expect([paris.timeZone, paris.timeZoneAsked]).toEqual(["Europe/Paris", true]);
  });

  it("knows the reader read today from an article of today in the zone, not a signup, a streak day or a revoked one", () => {
    const never = profileOf({ streak: { current: 0, longest: 0 } });
    const now = new Date("2026-12-04T23:30:00.000Z");
    const sentenceWith = (...list: Parameters<typeof awardOf>[0][]) =>
      readerView(
        {
          profile: never,
          awards: awardsOf(...list.map(awardOf)),
          achievements: achievementsOf(),
          board: boardOf(),
        },
        { timeZone: "Europe/Paris", timeZoneAsked: true, now },
      ).streak.sentence;
    const invites = "No day read yet: read today (2026-12-05 in Europe/Paris) to start your first run.";
    // 23:10 UTC on the 4th is the 5th in Paris: today there.
    expect(sentenceWith({ eventTime: "2026-12-04T23:10:00.000Z" })).toMatch(/^You have read today/);
    // 22:50 UTC is 23:50 on the 4th in Paris: yesterday there.
    expect(sentenceWith({ eventTime: "2026-12-04T22:50:00.000Z" })).toBe(invites);
    expect(sentenceWith({ eventTime: "2026-12-04T23:10:00.000Z", type: "signup.completed", data: {} })).toBe(
      invites,
    );
    expect(
      sentenceWith({
        eventTime: "2026-12-04T23:10:00.000Z",
        type: "streak.day",
        data: { day: "2026-12-04" },
      }),
    ).toBe(invites);
    expect(
      sentenceWith({ eventTime: "2026-12-04T23:10:00.000Z", revokedAt: "2026-12-04T23:20:00.000Z" }),
    ).toBe(invites);
  });
});
