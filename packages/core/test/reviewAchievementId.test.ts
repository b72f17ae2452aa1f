import { describe, expect, it } from "vitest";
import {
  achievementItemSchema,
  rewardAchieved,
  rewardAchievedSchema,
} from "../src/domain/announce/rewardAchieved";
import { achievementKey } from "../src/domain/table/tableLayout";
import { builtinWith } from "./rulesFixtures";

// Review finding: a rules document accepts achievement ids `^[a-z0-9][a-z0-9-]{0,63}$`
// ("read--more", "podcasts-"), the achievement item accepts them (isAchievementId), and the
// announcer announces them — but `reward.achieved`'s own schema (and the JSON Schema consumers
// get, and `rewards grants tail`'s readAnnouncement) only accepts `^[a-z0-9]+(-[a-z0-9]+)*$`.
describe("review: a site's achievement id the rules accept", () => {
  for (const id of ["read--more", "podcasts-"])
    it(`${id}: its reward.achieved passes reward.achieved's schema`, () => {
      const document = builtinWith((rules) => {
        rules.achievements.push({ id, title: "T", when: { xp: 50 } });
      });
      expect(document.achievements.some((a) => a.id === id)).toBe(true); // published fine
      const item = achievementItemSchema.parse({
        ...achievementKey("u1", id),
        userId: "u1",
        achievement: id,
        title: "T",
        earnedAt: "2026-12-05T10:00:00.000Z",
      });
      expect(rewardAchievedSchema.safeParse(rewardAchieved(item)).success).toBe(true);
    });
});
