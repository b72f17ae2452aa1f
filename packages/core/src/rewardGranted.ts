import { createHash } from "node:crypto";
import { z } from "zod";
import { userIdSchema } from "./envelope";
import { GUARD_PK_PREFIX, GUARD_SK } from "./intentKey";
import { isRfc3339DateTime } from "./rfc3339";
import { eventTypes } from "./rules";

const rfc3339 = z.string().refine(isRfc3339DateTime, "must be an RFC 3339 date-time");

/**
 * `reward.granted` (docs/events.md): one CloudEvent per award, published to the rewards
 * EventBridge bus by the announcer from the guard the award wrote.
 */
export const rewardGrantedSchema = z
  .object({
    specversion: z.literal("1.0"),
    id: z
      .string()
      .regex(/^grant-[A-Za-z0-9_-]{43}$/)
      .describe("the award's id: every copy of one award has it"),
    source: z.literal("/rewards"),
    type: z.literal("reward.granted"),
    time: rfc3339.describe("when the award was committed (its awardedAt)"),
    subject: userIdSchema.describe("the user paid"),
    datacontenttype: z.literal("application/json"),
    data: z.object({
      userId: userIdSchema,
      eventType: z.enum(eventTypes).describe("the reading event that was paid"),
      xp: z.number().int().positive(),
      intentKey: z
        .string()
        .min(1)
        .describe("what the award is for (see Duplicates are safe: the intent key)"),
      eventId: z.string().min(1).describe("the paid emission's CloudEvents id"),
      awardedAt: rfc3339,
    }),
  })
  .meta({
    title: "reward.granted",
    description:
      "One award, announced once per award at least once: consumers deduplicate on id (the same for every copy).",
  });

export type RewardGranted = z.infer<typeof rewardGrantedSchema>;

/** An award's id, from what makes it that award: its intent and the instant it was committed. */
export function grantId(intentKey: string, awardedAt: string): string {
  return `grant-${createHash("sha256").update(`${intentKey}\n${awardedAt}`).digest("base64url")}`;
}

/** The guard an award wrote, as the table's stream shows it (unmarshalled). */
export const guardImageSchema = z.object({
  pk: z.string().startsWith(GUARD_PK_PREFIX),
  sk: z.literal(GUARD_SK),
  userId: z.string().min(1),
  type: z.enum(eventTypes),
  amount: z.number().int().positive(),
  eventId: z.string().min(1),
  awardedAt: rfc3339,
});

export type GuardImage = z.infer<typeof guardImageSchema>;

/** The `reward.granted` event of the award that wrote `guard`. Pure: the same guard, the same event. */
export function rewardGranted(guard: GuardImage): RewardGranted {
  const intentKey = guard.pk.slice(GUARD_PK_PREFIX.length);
  return {
    specversion: "1.0",
    id: grantId(intentKey, guard.awardedAt),
    source: "/rewards",
    type: "reward.granted",
    time: guard.awardedAt,
    subject: guard.userId,
    datacontenttype: "application/json",
    data: {
      userId: guard.userId,
      eventType: guard.type,
      xp: guard.amount,
      intentKey,
      eventId: guard.eventId,
      awardedAt: guard.awardedAt,
    },
  };
}
