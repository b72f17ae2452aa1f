import { createHash } from "node:crypto";
import { z } from "zod";
import { userIdSchema } from "../events/envelope";
import { rfc3339DateTime as rfc3339 } from "../events/rfc3339";
import { achievementTitle, isAchievementId } from "../progress/achievements";
import { achievementKey } from "../table/tableLayout";
import { envelopeFields } from "./busEnvelope";

/**
 * `reward.achieved` (docs/events.md): an achievement a reader earned, announced on the rewards
 * bus by the announcer from the achievement's item (written once, never deleted: sticky).
 */

const GRANT_ID = /^grant-[A-Za-z0-9_-]{43}$/;

export const rewardAchievedSchema = z
  .object({
    ...envelopeFields,
    subject: userIdSchema.describe("the reader who earned it"),
    id: z
      .string()
      .regex(/^achieve-[A-Za-z0-9_-]{43}$/)
      .describe("the achievement's id for this reader: every copy has it, and a reader earns each once"),
    type: z.literal("reward.achieved"),
    time: rfc3339.describe("when it was earned (its earnedAt)"),
    data: z.object({
      userId: userIdSchema,
      achievement: z
        .string()
        // Any id a rules document may give one (rulesDocument's ID), the built-in and level ones too.
        .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
        .describe(
          "which achievement: first-article, articles-10, streak-7, level-3, … (docs/reading.md#achievements)",
        ),
      title: z.string().min(1).describe("its title, as the docs list it"),
      earnedAt: rfc3339,
      grantId: z
        .string()
        .regex(GRANT_ID)
        .optional()
        .describe("the reward.granted id of the award that crossed it, when there is one"),
    }),
  })
  .meta({
    title: "reward.achieved",
    description:
      "An achievement a reader earned, announced at least once per reader and achievement, never taken back: consumers deduplicate on id (the same for every copy).",
  });

export type RewardAchieved = z.infer<typeof rewardAchievedSchema>;

/** A reader's achievement's id: from who and which alone, since each is earned at most once. */
export function achievementId(userId: string, achievement: string): string {
  return `achieve-${createHash("sha256").update(`${userId}\n${achievement}`).digest("base64url")}`;
}

/**
 * An achievement item as the table's stream shows it (unmarshalled): `{ pk, sk, userId,
 * achievement, title, earnedAt, grantId? }` at the user's `achievementKey`, put once by the
 * history's writer and never changed. Its keys must be the ones its `userId` and
 * `achievement` make; `title` absent is the achievement's title as the docs list it.
 */
export const achievementItemSchema = z
  .object({
    pk: z.string(),
    sk: z.string(),
    userId: userIdSchema,
    achievement: z.string().refine(isAchievementId, { error: "not an achievement id" }),
    title: z.string().min(1).optional(),
    earnedAt: rfc3339,
    grantId: z.string().regex(GRANT_ID).optional(),
  })
  .refine(
    (item) => {
      const key = achievementKey(item.userId, item.achievement);
      return item.pk === key.pk && item.sk === key.sk;
    },
    { error: "the keys are not the user's and achievement's", path: ["sk"] },
  );

export type AchievementItem = z.infer<typeof achievementItemSchema>;

/** The `reward.achieved` event of an achievement item. Pure: the same item, the same event. */
export function rewardAchieved(item: AchievementItem): RewardAchieved {
  return {
    specversion: "1.0",
    id: achievementId(item.userId, item.achievement),
    source: "/rewards",
    type: "reward.achieved",
    time: item.earnedAt,
    subject: item.userId,
    datacontenttype: "application/json",
    data: {
      userId: item.userId,
      achievement: item.achievement,
      title: item.title ?? achievementTitle(item.achievement),
      earnedAt: item.earnedAt,
      ...(item.grantId === undefined ? {} : { grantId: item.grantId }),
    },
  };
}
