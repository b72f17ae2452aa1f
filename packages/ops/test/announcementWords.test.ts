import {
  achievementItemSchema,
  achievementKey,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  rewardAchieved,
  rewardGranted,
  rewardRevoked,
} from "@rewards/core";
import { describe, expect, it } from "vitest";
import { announcementWords } from "../src/grants/announcementWords";

const guard: GuardImage = {
  pk: `${GUARD_PK_PREFIX}u1#a#article.completed`,
  sk: GUARD_SK,
  userId: "u1",
  type: "article.completed",
  amount: 20,
  eventId: "evt-a",
  awardedAt: "2026-12-01T10:00:01.234Z",
};

describe("announcementWords: what `grants tail` says of each announcement", () => {
  it("an award: its event type and the XP paid (and, cut by the cap, what it asked)", () => {
    const granted = rewardGranted(guard);
    expect(announcementWords(granted)).toEqual({
      time: "2026-12-01T10:00:01.234Z",
      event: "reward.granted",
      user: "u1",
      what: "article.completed +20 XP",
      id: granted.id,
    });
    expect(announcementWords(rewardGranted({ ...guard, amount: 10, requested: 20 })).what).toBe(
      "article.completed +10 XP (of 20)",
    );
  });

  it("a revocation: the XP taken back, at its revokedAt", () => {
    const revoked = rewardRevoked({ ...guard, revokedAt: "2026-12-02T00:00:00.000Z", revokedReason: "bug" });
    expect(announcementWords(revoked)).toEqual({
      time: "2026-12-02T00:00:00.000Z",
      event: "reward.revoked",
      user: "u1",
      what: "article.completed -20 XP",
      id: revoked.id,
    });
  });

  it("an achievement: which one and its title, at its earnedAt (no XP)", () => {
    const achieved = rewardAchieved(
      achievementItemSchema.parse({
        ...achievementKey("u1", "first-article"),
        userId: "u1",
        achievement: "first-article",
        title: "First article",
        earnedAt: "2026-12-01T10:00:01.456Z",
      }),
    );
    expect(announcementWords(achieved)).toEqual({
      time: "2026-12-01T10:00:01.456Z",
      event: "reward.achieved",
      user: "u1",
      what: "first-article (First article)",
      id: achieved.id,
    });
  });
});
