import { createHash } from "node:crypto";
import { z } from "zod";
import { userIdSchema } from "../events/envelope";
import { rfc3339DateTime as rfc3339 } from "../events/rfc3339";
import { eventTypeNameSchema } from "../rules/rulesDocument";
import { guardItemFields, intentKeyOfGuard } from "../table/tableLayout";
import { envelopeFields } from "./busEnvelope";
import type { RewardAchieved } from "./rewardAchieved";

/** The fields every announcement of an award carries (docs/events.md, `reward.granted`). */
const awardFields = {
  userId: userIdSchema,
  eventType: eventTypeNameSchema.describe(
    "the reading event that was paid: a built-in type or one the site's rules define (docs/rules.md)",
  ),
  intentKey: z.string().min(1).describe("what the award is for (see Duplicates are safe: the intent key)"),
  eventId: z.string().min(1).describe("the paid emission's CloudEvents id"),
  awardedAt: rfc3339,
  rulesVersion: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("the version of the site's rules that paid it; absent: the built-in rules (version 0)"),
  campaign: z.string().min(1).optional().describe("the campaign that made it pay more than its type's XP"),
};

/**
 * `reward.granted` (docs/events.md): one CloudEvent per award that paid XP, published to the
 * rewards EventBridge bus by the announcer from the guard the award wrote.
 */
export const rewardGrantedSchema = z
  .object({
    ...envelopeFields,
    id: z
      .string()
      .regex(/^grant-[A-Za-z0-9_-]{43}$/)
      .describe("the award's id: every copy of one award has it"),
    type: z.literal("reward.granted"),
    time: rfc3339.describe("when the award was committed (its awardedAt)"),
    data: z.object({
      ...awardFields,
      xp: z
        .number()
        .int()
        .nonnegative()
        .describe("the XP paid: 0 only for a rule that pays 0 (an award the cap left at 0 is not announced)"),
      requestedXp: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("present only when the daily cap cut the award: the XP its rule asked for"),
    }),
  })
  .meta({
    title: "reward.granted",
    description:
      "One award, announced once per award at least once: consumers deduplicate on id (the same for every copy).",
  });

export type RewardGranted = z.infer<typeof rewardGrantedSchema>;

/**
 * `reward.revoked` (docs/events.md): an operator took an award back. Its `data` is the award's
 * (as its `reward.granted` said it) plus when and why it was revoked.
 */
export const rewardRevokedSchema = z
  .object({
    ...envelopeFields,
    id: z
      .string()
      .regex(/^revoke-[A-Za-z0-9_-]{43}$/)
      .describe("the revocation's id: every copy of one revocation has it"),
    type: z.literal("reward.revoked"),
    time: rfc3339.describe("when the award was revoked (its revokedAt)"),
    data: z.object({
      ...awardFields,
      xp: z.number().int().nonnegative().describe("the XP the award had paid, now taken back"),
      requestedXp: z.number().int().positive().optional(),
      revokedAt: rfc3339,
      reason: z.string().min(1).describe("the operator's reason"),
    }),
  })
  .meta({
    title: "reward.revoked",
    description:
      "An award taken back, announced once per revocation at least once: undo what the reward.granted of the same intentKey and awardedAt showed; deduplicate on id.",
  });

export type RewardRevoked = z.infer<typeof rewardRevokedSchema>;

/** An announcement of an award: its grant, or its revocation. */
export type AwardAnnouncement = RewardGranted | RewardRevoked;

/** Whatever the announcer publishes on the rewards bus. */
export type Announcement = AwardAnnouncement | RewardAchieved;

function idOf(prefix: string, text: string): string {
  return `${prefix}${createHash("sha256").update(text).digest("base64url")}`;
}

/** An award's id, from what makes it that award: its intent and the instant it was committed. */
export function grantId(intentKey: string, awardedAt: string): string {
  return idOf("grant-", `${intentKey}\n${awardedAt}`);
}

/** A revocation's id: the award's (intent, awardedAt) and the word `revoked` (an award is revoked at most once). */
export function revokeId(intentKey: string, awardedAt: string): string {
  return idOf("revoke-", `${intentKey}\n${awardedAt}\nrevoked`);
}

/** The guard an award wrote, as the table's stream shows it (unmarshalled). */
export const guardImageSchema = z
  .object(guardItemFields)
  .omit({ messageId: true, expiresAt: true })
  .extend({ type: eventTypeNameSchema, revokedReason: z.string().min(1).optional() });

export type GuardImage = z.infer<typeof guardImageSchema>;

function awardData(guard: GuardImage) {
  return {
    userId: guard.userId,
    eventType: guard.type,
    xp: guard.amount,
    intentKey: intentKeyOfGuard(guard.pk),
    eventId: guard.eventId,
    awardedAt: guard.awardedAt,
    ...(guard.requested === undefined ? {} : { requestedXp: guard.requested }),
    ...(guard.rulesVersion === undefined ? {} : { rulesVersion: guard.rulesVersion }),
    ...(guard.campaign === undefined ? {} : { campaign: guard.campaign }),
  };
}

/** The `reward.granted` event of the award that wrote `guard`. Pure: the same guard, the same event. */
export function rewardGranted(guard: GuardImage): RewardGranted {
  const data = awardData(guard);
  return {
    specversion: "1.0",
    id: grantId(data.intentKey, guard.awardedAt),
    source: "/rewards",
    type: "reward.granted",
    time: guard.awardedAt,
    subject: guard.userId,
    datacontenttype: "application/json",
    data,
  };
}

/** The `reward.revoked` event of a revoked guard (`revokedAt` and `revokedReason` set). */
export function rewardRevoked(
  guard: GuardImage & { revokedAt: string; revokedReason: string },
): RewardRevoked {
  const data = awardData(guard);
  return {
    specversion: "1.0",
    id: revokeId(data.intentKey, guard.awardedAt),
    source: "/rewards",
    type: "reward.revoked",
    time: guard.revokedAt,
    subject: guard.userId,
    datacontenttype: "application/json",
    data: { ...data, revokedAt: guard.revokedAt, reason: guard.revokedReason },
  };
}
