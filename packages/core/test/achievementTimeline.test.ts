import { describe, expect, it } from "vitest";
import {
  achievementsOnTimeline,
  dayNumberOf,
  type TimelineAward,
  timelineAwardOf,
  timelineEvents,
  timelineTotals,
} from "../src/domain";

let n = 0;
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString();

function award(type: string, minute: number, extra: Partial<TimelineAward> = {}): TimelineAward {
  n++;
  return { grantId: `grant-${n}`, type, xp: 20, awardedAt: at(minute), announced: true, ...extra };
}
const article = (minute: number, extra: Partial<TimelineAward> = {}) =>
  award("article.completed", minute, extra);
const streakDay = (day: string, minute: number, extra: Partial<TimelineAward> = {}) =>
  award("streak.day", minute, { xp: 10, keepsDay: dayNumberOf(day), ...extra });
const week = [
  "2026-11-24",
  "2026-11-25",
  "2026-11-26",
  "2026-11-27",
  "2026-11-28",
  "2026-11-29",
  "2026-11-30",
];
const ids = (awards: TimelineAward[]) => achievementsOnTimeline(awards).map(({ achievement }) => achievement);

describe("achievements on the reader's timeline", () => {
  it("earns each at the award whose commit crossed it, credited to that award", () => {
    const articles = Array.from({ length: 10 }, (_, i) => article(i));
    expect(achievementsOnTimeline(articles)).toEqual([
      { achievement: "first-article", earnedAt: at(0), grantId: articles[0]?.grantId },
      { achievement: "level-2", earnedAt: at(4), grantId: articles[4]?.grantId },
      { achievement: "articles-10", earnedAt: at(9), grantId: articles[9]?.grantId },
    ]);
    // 250 XP: level 3, at the award that reached it.
    const more = [...articles, article(10, { xp: 50 })];
    expect(achievementsOnTimeline(more).at(-1)).toEqual({
      achievement: "level-3",
      earnedAt: at(10),
      grantId: more[10]?.grantId,
    });
  });

  it("keeps what a count reached before a later revocation (finding: the revocation committed before the writer reached the crossing)", () => {
    const articles = Array.from({ length: 10 }, (_, i) => article(i));
    (articles[0] as TimelineAward).revokedAt = at(20);
    expect(ids(articles)).toContain("articles-10");
    // Revoked before the tenth: the count was never 10.
    (articles[0] as TimelineAward).revokedAt = at(5);
    expect(ids(articles)).not.toContain("articles-10");
  });

  it("keeps a level reached before a revocation took XP back (100, then 80)", () => {
    const awards = Array.from({ length: 5 }, (_, i) => article(i));
    (awards[2] as TimelineAward).revokedAt = at(30);
    expect(achievementsOnTimeline(awards)).toContainEqual({
      achievement: "level-2",
      earnedAt: at(4),
      grantId: awards[4]?.grantId,
    });
    (awards[2] as TimelineAward).revokedAt = at(3);
    expect(ids(awards)).not.toContain("level-2");
  });

  it("earns a streak only from days all kept at one instant", () => {
    const days = week.map((day, i) => streakDay(day, i));
    expect(achievementsOnTimeline(days)).toContainEqual({
      achievement: "streak-7",
      earnedAt: at(6),
      grantId: days[6]?.grantId,
    });
    // The sixth day revoked after the run was complete: earned.
    (days[5] as TimelineAward).revokedAt = at(40);
    expect(ids(days)).toContain("streak-7");
    // Revoked before the seventh day was paid: never seven in a row.
    (days[5] as TimelineAward).revokedAt = at(5);
    expect(ids(days)).not.toContain("streak-7");
    // A day paid again later (another award keeping it) mends the run from then on.
    const mended = [...days, streakDay(week[5] as string, 50)];
    expect(achievementsOnTimeline(mended)).toContainEqual({
      achievement: "streak-7",
      earnedAt: at(50),
      grantId: mended[7]?.grantId,
    });
  });

  it("keeps a day while any standing award keeps it", () => {
    const days = week.map((day, i) => streakDay(day, i));
    const twice = streakDay(week[3] as string, 1);
    (days[3] as TimelineAward).revokedAt = at(4);
    expect(ids([...days, twice])).toContain("streak-7");
  });

  it("decides the same whatever order the awards come in", () => {
    const awards = [
      ...Array.from({ length: 12 }, (_, i) => article(i)),
      ...week.map((day, i) => streakDay(day, 20 + i)),
    ];
    (awards[3] as TimelineAward).revokedAt = at(11);
    (awards[15] as TimelineAward).revokedAt = at(24);
    const expected = achievementsOnTimeline(awards);
    expect(expected.map(({ achievement }) => achievement)).not.toContain("streak-7");
    for (let seed = 1; seed <= 20; seed++) {
      const shuffled = [...awards].sort(
        (a, b) =>
          ((a.grantId.length * 31 + seed * 17 + Number(a.grantId.slice(6))) % 7) -
          ((b.grantId.length * 31 + seed * 17 + Number(b.grantId.slice(6))) % 7),
      );
      expect(achievementsOnTimeline(shuffled)).toEqual(expected);
      expect(achievementsOnTimeline([...shuffled, ...shuffled])).toEqual(expected);
    }
  });

  it("orders one transaction's awards by their place in it, and credits the first at which the count reaches the threshold", () => {
    const before = Array.from({ length: 8 }, (_, i) => article(i));
    // One transaction: three awards at one instant, listed out of their order.
    const together = [article(30, { seq: 2 }), article(30, { seq: 0 }), article(30, { seq: 1 })];
    const crossing = achievementsOnTimeline([...before, ...together]).find(
      (e) => e.achievement === "articles-10",
    );
    expect(crossing).toEqual({ achievement: "articles-10", earnedAt: at(30), grantId: together[2]?.grantId });
  });

  it("puts a revocation after the awards of its own instant, and never before its own award", () => {
    const a = article(5);
    const b = article(5, { seq: 1, revokedAt: at(5) });
    const skewed = article(6, { revokedAt: at(1) });
    expect(timelineEvents([skewed, b, a]).map((event) => [event.award.grantId, event.kind])).toEqual([
      [a.grantId, 0],
      [b.grantId, 0],
      [b.grantId, 1],
      [skewed.grantId, 0],
      [skewed.grantId, 1],
    ]);
  });

  it("names no grantId for an award that announced nothing (the cap cut it to 0), and names a 0-XP award that was announced", () => {
    const articles = Array.from({ length: 9 }, (_, i) => article(i));
    const capped = article(20, { xp: 0, announced: false });
    expect(
      achievementsOnTimeline([...articles, capped]).find((e) => e.achievement === "articles-10"),
    ).toEqual({
      achievement: "articles-10",
      earnedAt: at(20),
    });
    const zero = article(20, { xp: 0, announced: true });
    expect(achievementsOnTimeline([...articles, zero]).find((e) => e.achievement === "articles-10")).toEqual({
      achievement: "articles-10",
      earnedAt: at(20),
      grantId: zero.grantId,
    });
  });

  it("earns nothing from an empty timeline, nor from revocations alone", () => {
    expect(achievementsOnTimeline([])).toEqual([]);
    expect(ids([article(0, { revokedAt: at(0) })])).toEqual(["first-article"]);
  });

  it("reads a history item: its kept day, whether it announced, and what stands", () => {
    const item = {
      id: "grant-x",
      type: "streak.day",
      xp: 0,
      requestedXp: 10,
      awardedAt: at(1),
      data: { day: "2026-12-01" },
    };
    expect(timelineAwardOf(item)).toEqual({
      grantId: "grant-x",
      type: "streak.day",
      xp: 0,
      awardedAt: at(1),
      seq: undefined,
      revokedAt: undefined,
      keepsDay: dayNumberOf("2026-12-01"),
      announced: false,
    });
    expect(
      timelineAwardOf({ ...item, type: "article.completed", xp: 0, requestedXp: undefined }),
    ).toMatchObject({
      keepsDay: undefined,
      announced: true,
    });
    expect(timelineAwardOf({ ...item, data: {} }).keepsDay).toBeUndefined();
    expect(timelineTotals([article(0), article(1, { xp: 5 }), article(2, { revokedAt: at(3) })])).toEqual({
      awards: 2,
      xp: 25,
    });
  });

  it("at one instant without places (guards written before them), orders by grant id, either way round", () => {
    const before = Array.from({ length: 9 }, (_, i) => article(i));
    const a = article(30, { grantId: "grant-a" });
    const b = article(30, { grantId: "grant-b" });
    for (const order of [
      [a, b],
      [b, a],
    ]) {
      const crossing = achievementsOnTimeline([...before, ...order]).find(
        (e) => e.achievement === "articles-10",
      );
      expect(crossing?.grantId).toBe("grant-a");
    }
    expect(timelineEvents([b, a]).map((event) => event.award.grantId)).toEqual(["grant-a", "grant-b"]);
    expect(timelineEvents([a, b]).map((event) => event.award.grantId)).toEqual(["grant-a", "grant-b"]);
  });

  it("takes a revoked copy of an award for its later state, whichever copy comes first", () => {
    const nine = Array.from({ length: 9 }, (_, i) => article(i));
    const tenth = article(20);
    const revoked = { ...tenth, revokedAt: at(15) };
    // Revoked at 15, before its own award at 20 on this clock: placed at 20, after it. The tenth
    // still counts at its instant; a copy read twice is one award.
    for (const copies of [
      [tenth, revoked],
      [revoked, tenth],
      [revoked, revoked],
    ]) {
      const events = timelineEvents([...nine, ...copies]).filter(
        (event) => event.award.grantId === tenth.grantId,
      );
      expect(events.map((event) => event.kind)).toEqual([0, 1]);
    }
    expect(
      timelineEvents([tenth, tenth]).filter((event) => event.award.grantId === tenth.grantId),
    ).toHaveLength(1);
    expect(timelineTotals([...nine, tenth])).toEqual({ awards: 10, xp: 200 });
  });

  it("keeps no day for a history item whose day is not a calendar day's shape", () => {
    const item = { id: "g", type: "streak.day", xp: 10, awardedAt: at(1), data: { day: "2026-12-01" } };
    for (const day of ["x2026-12-01", "2026-12-01x", "2026-12-1", ""])
      expect(timelineAwardOf({ ...item, data: { day } }).keepsDay).toBeUndefined();
    expect(timelineAwardOf(item).keepsDay).toBe(dayNumberOf("2026-12-01"));
    // Only streak.day keeps a day, whatever its data says.
    expect(timelineAwardOf({ ...item, type: "article.completed" }).keepsDay).toBeUndefined();
  });

  it("orders one transaction's awards by their place even when the grant ids sort the other way", () => {
    const before = Array.from({ length: 9 }, (_, i) => article(i));
    const last = article(30, { seq: 1, grantId: "grant-a" });
    const first = article(30, { seq: 0, grantId: "grant-z" });
    expect(
      achievementsOnTimeline([...before, last, first]).find((e) => e.achievement === "articles-10")?.grantId,
    ).toBe("grant-z");
  });
});
