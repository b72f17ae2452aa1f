import { dayNumberOf } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { progressRepairOf } from "../src/progress/progressRepair";
import type { ReaderState } from "../src/progress/readerState";

// Review finding: backfill / history rebuild (progressRepairOf) only look at streak.day's
// data.day, never at a guard's recorded keepsDay (a keepsStreak type of a published version).
// docs/rules.md ("What is not built yet") says `rewards backfill` puts back a day the progress
// item dropped — it cannot, for a day only a site type keeps.
const state = (given: Partial<ReaderState>): ReaderState => ({
  profile: undefined,
  keptDays: new Set(),
  achievements: new Set(),
  listed: new Set(),
  history: [],
  ...given,
});

describe("review: progressRepairOf and keepsDay", () => {
  it("puts back a day a standing keepsStreak award keeps (keepsDay on its history item)", () => {
    const repair = progressRepairOf(
      state({
        keptDays: new Set(),
        history: [
          {
            pk: "USER#u",
            sk: "AWARD#2026-12-05T10:00:00.000Z#g1",
            type: "podcast.listened",
            data: { episode: "e1", day: "2026-12-05", minutes: 10 },
            keepsDay: "2026-12-05",
          },
        ],
      }),
      { counts: false },
    );
    expect(repair.keep).toEqual([dayNumberOf("2026-12-05")]);
  });

  it("never removes a day a standing keepsStreak award keeps when a streak.day of that day is revoked", () => {
    const day = dayNumberOf("2026-12-05");
    const repair = progressRepairOf(
      state({
        keptDays: new Set([day]),
        history: [
          {
            pk: "USER#u",
            sk: "AWARD#2026-12-05T10:00:00.000Z#g1",
            type: "podcast.listened",
            data: { episode: "e1", day: "2026-12-05", minutes: 10 },
            keepsDay: "2026-12-05",
          },
          {
            pk: "USER#u",
            sk: "AWARD#2026-12-05T11:00:00.000Z#g2",
            type: "streak.day",
            data: { day: "2026-12-05" },
            revokedAt: "2026-12-05T12:00:00.000Z",
          },
        ],
      }),
      { counts: false },
    );
    expect(repair.unkeep).toEqual([]);
  });
});
