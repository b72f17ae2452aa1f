import { describe, expect, it } from "vitest";
import { type Award, epochMsOfRfc3339, eventTimeOf, firstSentAtOf, untimelyReason } from "../src/domain";

const DAY = 86_400_000;
// Midnight, so the memory's edge (now − 89 days) is a day's start too.
const NOW = Date.parse("2026-12-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const article = (time?: string): Award => ({
  intentKey: "u#a#article.completed",
  userId: "u",
  type: "article.completed",
  amount: 20,
  eventId: "e",
  data: { articleSlug: "a" },
  guardTtlSeconds: 90 * 86_400,
  ...(time ? { time } : {}),
});
const streak = (day: string, time = iso(NOW)): Award => ({
  ...article(time),
  type: "streak.day",
  amount: 10,
  intentKey: `u#${day}#streak.day`,
  day,
});
const judge = (award: Award, queue = {}) => untimelyReason(award, queue, NOW);

describe("when an event happened", () => {
  it("its time; else rewards.firstSentAt; else SentTimestamp; else the clock", () => {
    expect(eventTimeOf("2026-11-30T10:00:00Z", { sentTimestamp: "5" }, NOW)).toEqual({
      ms: Date.parse("2026-11-30T10:00:00Z"),
      from: "time",
    });
    expect(firstSentAtOf({ firstSentAt: "2026-09-01T00:00:00.000Z", sentTimestamp: "5" })).toEqual({
      ms: Date.parse("2026-09-01T00:00:00.000Z"),
      from: "rewards.firstSentAt",
    });
    expect(firstSentAtOf({ firstSentAt: "garbage", sentTimestamp: "5" })).toEqual({
      ms: 5,
      from: "SentTimestamp",
    });
    expect(firstSentAtOf({ sentTimestamp: "" })).toBeUndefined();
    expect(firstSentAtOf({ sentTimestamp: "soon" })).toBeUndefined();
    expect(firstSentAtOf({})).toBeUndefined();
    expect(eventTimeOf(undefined, {}, NOW)).toEqual({ ms: NOW, from: "the worker's clock" });
  });

  it("RFC 3339 times to instants: offsets, fractions, lower case, a leap second", () => {
    expect(epochMsOfRfc3339("2026-12-01T00:00:00Z")).toBe(NOW);
    expect(epochMsOfRfc3339("2026-12-01T05:30:00+05:30")).toBe(NOW);
    expect(epochMsOfRfc3339("2026-11-30T16:00:00-08:00")).toBe(NOW);
    expect(epochMsOfRfc3339("2026-12-01t00:00:00.5z")).toBe(NOW + 500);
    expect(epochMsOfRfc3339("2026-12-01T00:00:00.123456789Z")).toBe(NOW + 123);
    expect(epochMsOfRfc3339("2026-11-30T23:59:60Z")).toBe(NOW - 1000);
    expect(epochMsOfRfc3339("yesterday")).toBeNaN();
    expect(epochMsOfRfc3339("2026-02-30T00:00:00Z")).toBeNaN();
  });
});

describe("untimelyReason", () => {
  it("up to 5 minutes ahead of the clock is fine; a millisecond more is invalid, and says why", () => {
    expect(judge(article(iso(NOW + 5 * 60_000)))).toBeUndefined();
    expect(judge(article(iso(NOW + 5 * 60_000 + 1)))).toEqual({
      code: "invalid_event",
      reason: `time ${iso(NOW + 300_001)} is more than 5 minutes after the worker's clock (${iso(NOW)})`,
    });
  });

  it("89 days old is the last instant it can be judged; a millisecond older is stale", () => {
    expect(judge(article(iso(NOW - 89 * DAY)))).toBeUndefined();
    expect(judge(article(iso(NOW - 89 * DAY - 1)))).toEqual({
      code: "stale",
      reason: `time ${iso(NOW - 89 * DAY - 1)} is too old: article.completed is remembered 90 days, so nothing before ${iso(NOW - 89 * DAY)} (89 days ago) can be judged and paid`,
    });
    expect(judge(article(), { sentTimestamp: String(NOW - 100 * DAY) })?.reason).toMatch(
      /^the event has no time; SentTimestamp .* is too old/,
    );
  });

  it("a streak day starting on the memory's edge counts; the day before is stale whatever the time", () => {
    expect(judge(streak(iso(NOW - 89 * DAY).slice(0, 10)))).toBeUndefined();
    expect(judge(streak(iso(NOW - 90 * DAY).slice(0, 10)))).toEqual({
      code: "stale",
      reason: `data.day ${iso(NOW - 90 * DAY).slice(0, 10)} is too old: streak.day is remembered 90 days, so nothing before ${iso(NOW - 89 * DAY)} (89 days ago) can be judged and paid`,
    });
  });

  it("a streak day may be the day after its event's (UTC) date, not later", () => {
    const lateEvening = "2026-11-30T23:00:00.000Z";
    expect(judge(streak("2026-12-01", lateEvening))).toBeUndefined();
    expect(judge(streak("2026-12-02", lateEvening))).toEqual({
      code: "invalid_event",
      reason: `data.day 2026-12-02 is later than the day after the event's time (${lateEvening})`,
    });
  });

  it("a rule kept forever is never stale", () => {
    const signup = {
      ...article(iso(NOW - 5 * 365 * DAY)),
      type: "signup.completed" as const,
      guardTtlSeconds: undefined,
    };
    expect(judge(signup)).toBeUndefined();
  });
});
