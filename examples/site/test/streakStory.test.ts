import { describe, expect, it } from "vitest";
import { streakStory } from "../src/streakStory";

const TODAY = "2026-12-04";
const story = (
  streak: { current: number; longest: number; lastDay?: string },
  readToday = false,
  timeZone = "UTC",
) => streakStory({ streak, today: TODAY, timeZone, readToday });

describe("streakStory: the streak's sentence, true in every state", () => {
  it("never started: invites to read today, naming the zone's today", () => {
    expect(story({ current: 0, longest: 0 })).toEqual({
      state: "never",
      flame: "out",
      sentence: "No day read yet: read today (2026-12-04 in UTC) to start your first run.",
    });
  });

  it("never started but read today: does not ask to read today, says no day is counted yet", () => {
    const { state, flame, sentence } = story({ current: 0, longest: 0 }, true);
    expect([state, flame]).toEqual(["never", "out"]);
    expect(sentence).toBe(
      "You have read today, but no day of reading is counted for your streak yet: your first run starts with the first day counted.",
    );
    expect(sentence).not.toMatch(/read today to/);
  });

  it("read today: the run and what tomorrow makes it; only here is a missed day mentioned", () => {
    expect(story({ current: 3, longest: 5, lastDay: TODAY })).toEqual({
      state: "today",
      flame: "burning",
      sentence:
        "You read today (2026-12-04 in UTC): 3 days in a row. Come back tomorrow to make it 4 days; miss a day and the run starts over.",
    });
    expect(story({ current: 1, longest: 1, lastDay: TODAY }, true, "Europe/Paris").sentence).toBe(
      "You read today (2026-12-04 in Europe/Paris): 1 day in a row. Come back tomorrow to make it 2 days; miss a day and the run starts over.",
    );
  });

  it("alive from yesterday: read today to keep it", () => {
    expect(story({ current: 1, longest: 4, lastDay: "2026-12-03" })).toEqual({
      state: "alive",
      flame: "waiting",
      sentence:
        "Your 1-day run is still going: read today (2026-12-04 in UTC) to keep it, or it starts over.",
    });
  });

  it("alive from yesterday and read today: today is on its way, not asked for again", () => {
    expect(story({ current: 6, longest: 6, lastDay: "2026-12-03" }, true)).toEqual({
      state: "alive",
      flame: "waiting",
      sentence: "You have read today (2026-12-04 in UTC): once today is counted, your run is 7 days.",
    });
  });

  it("ended: the last day and a new run, never 'miss a day' at 0", () => {
    const ended = story({ current: 0, longest: 9, lastDay: "2026-11-20" });
    expect(ended).toEqual({
      state: "ended",
      flame: "out",
      sentence:
        "Your last day read was 2026-11-20, so that run is over: read today (2026-12-04 in UTC) to start a new one.",
    });
    expect(story({ current: 0, longest: 2, lastDay: "2026-12-02" }, true)).toEqual({
      state: "ended",
      flame: "out",
      sentence:
        "Your last day counted was 2026-12-02, so that run is over; you have read today, and a new run starts once today is counted.",
    });
  });

  it("ahead of the zone's today: counted in another zone, never 'tomorrow' as a day read", () => {
    const ahead = story({ current: 0, longest: 3, lastDay: "2026-12-05" });
    expect(ahead).toEqual({
      state: "ahead",
      flame: "out",
      sentence:
        "Your last day read, 2026-12-05, is after today here (2026-12-04 in UTC): your days are counted in a time zone ahead of this one. Choose that zone in the form above to see your run.",
    });
    expect(story({ current: 0, longest: 3, lastDay: "2026-12-05" }, true).state).toBe("ahead");
  });

  it("around midnight, takes the API's current: a run it counts is never said to be over or ahead", () => {
    // The API read a moment later, past midnight: its today is the page's tomorrow.
    expect(story({ current: 2, longest: 2, lastDay: "2026-12-05" }).state).toBe("today");
    // The API's clock a moment behind, across midnight: it read today's day as tomorrow (current 0).
    expect(story({ current: 0, longest: 2, lastDay: TODAY })).toEqual({
      state: "today",
      flame: "burning",
      sentence: "You read today (2026-12-04 in UTC).",
    });
  });

  it("says nothing contradictory in any state: no 'miss a day' at 0, no 'read today to' when read today", () => {
    const lastDays = [undefined, "2026-11-01", "2026-12-02", "2026-12-03", TODAY, "2026-12-05"];
    for (const lastDay of lastDays)
      for (const current of lastDay === undefined ? [0] : [0, 1, 5])
        for (const readToday of [false, true]) {
          const { sentence } = story(
            { current, longest: Math.max(current, 1), ...(lastDay ? { lastDay } : {}) },
            readToday,
          );
          if (current === 0) expect(sentence).not.toContain("miss a day");
          if (current === 0) expect(sentence).not.toMatch(/\d+ days? in a row/);
          if (readToday) expect(sentence).not.toMatch(/read today (\(.*\) )?to /);
          expect(sentence).not.toContain("undefined");
        }
  });
});
