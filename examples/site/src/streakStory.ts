import type { Streak } from "@rewards/reader";

/**
 * Where a reader's streak stands, read against today in the zone the page reads it in:
 * - `never`: no day kept yet;
 * - `today`: the last kept day is today — the run goes on;
 * - `alive`: the last kept day is yesterday — the run is still there, and today keeps it;
 * - `ended`: the last kept day is older — the run is over (`current` 0);
 * - `ahead`: the last kept day is after today here — the site sends the reader's days in a zone
 *   ahead of this one (the API reads `current` 0 then: docs/reading.md#streaks).
 */
export type StreakState = "never" | "today" | "alive" | "ended" | "ahead";

/** How the flame looks: burning (read today), waiting (yesterday's run, today still to read), out. */
export type Flame = "burning" | "waiting" | "out";

export interface StreakStory {
  state: StreakState;
  flame: Flame;
  /** The sentence under the figures: true in every state. */
  sentence: string;
}

export interface StreakFacts {
  /** The profile's streak, read by the API in `timeZone`. */
  streak: Streak;
  /** Today in `timeZone` (YYYY-MM-DD), read before the profile was asked for. */
  today: string;
  timeZone: string;
  /**
   * The reader has read today (in `timeZone`) by the awards the page holds: an award standing,
   * not a signup nor a streak day, whose event happened today. Reading is not a kept day: a kept
   * day is a `streak.day` award, which the site sends (and the history lists a moment later).
   */
  readToday: boolean;
}

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/**
 * The streak's state and the sentence that says it. `current` decides between a run that
 * stands and one that ended, as the API read it; the days decide between today, yesterday and
 * ahead. (Around midnight the API's today and the page's may differ by the time between the two
 * reads: the page reads its today first, so the API's is never earlier.)
 */
export function streakStory({ streak, today, timeZone, readToday }: StreakFacts): StreakStory {
  const { current, lastDay } = streak;
  const here = `${today} in ${timeZone}`;
  if (lastDay === undefined)
    return {
      state: "never",
      flame: "out",
      sentence: readToday
        ? "You have read today, but no day of reading is counted for your streak yet: your first run starts with the first day counted."
        : `No day read yet: read today (${here}) to start your first run.`,
    };
  if (lastDay > today && current === 0)
    return {
      state: "ahead",
      flame: "out",
      sentence: `Your last day read, ${lastDay}, is after today here (${here}): your days are counted in a time zone ahead of this one. Choose that zone in the form above to see your run.`,
    };
  if (lastDay >= today)
    return {
      state: "today",
      flame: "burning",
      sentence:
        current > 0
          ? `You read today (${here}): ${days(current)} in a row. Come back tomorrow to make it ${days(current + 1)}; miss a day and the run starts over.`
          : // The API's clock a moment behind the page's, across midnight: it read this day as tomorrow.
            `You read today (${here}).`,
    };
  if (current > 0)
    return {
      state: "alive",
      flame: "waiting",
      sentence: readToday
        ? `You have read today (${here}): once today is counted, your run is ${days(current + 1)}.`
        : `Your ${current}-day run is still going: read today (${here}) to keep it, or it starts over.`,
    };
  return {
    state: "ended",
    flame: "out",
    sentence: readToday
      ? `Your last day counted was ${lastDay}, so that run is over; you have read today, and a new run starts once today is counted.`
      : `Your last day read was ${lastDay}, so that run is over: read today (${here}) to start a new one.`,
  };
}
