import { type EventType, eventTypes } from "@rewards/core";
import { z } from "zod";

/**
 * What the reader answers (docs/reading.md#what-a-reader-sees), as zod schemas: the library's
 * return types come from them (`z.infer`), and the HTTP read API's OpenAPI document is
 * generated from them, so the two cannot drift apart.
 */

const count = z.number().int().nonnegative();
const instant = z.iso.datetime({ offset: true }).describe("an RFC 3339 date-time");
const utcDay = z.iso.date().describe("a UTC date, YYYY-MM-DD");

export const levelSchema = z
  .object({
    level: z.number().int().positive().describe("1 from 0 XP"),
    xpFloor: count.describe("the XP this level starts at"),
    xpNext: z.number().int().positive().describe("the XP the next level starts at"),
  })
  .describe("the level a user's XP reaches");

export const todaySchema = z
  .object({
    day: utcDay.describe("today's UTC date"),
    xp: count.describe(
      "XP paid today toward the daily cap: for awards whose event happened today (UTC), every rule but signup.completed, revoked ones included",
    ),
    cap: z.number().int().positive().optional().describe("the daily XP cap; only when one is set"),
    left: count.optional().describe("max(0, cap − xp); only when a cap is set"),
  })
  .describe("today's XP against the daily cap");

export const countsSchema = z
  .object(
    Object.fromEntries(eventTypes.map((type) => [type, count.describe(`awards of type ${type}`)])) as Record<
      EventType,
      typeof count
    >,
  )
  .catchall(count.describe("awards of a type the site's rules define"))
  .describe(
    "the number of awards per event type, every built-in type and every type of the rules in force present (0 when none): 0-XP ones included, less the revoked ones",
  );

export const streakSchema = z
  .object({
    current: count.describe(
      "consecutive kept days ending at lastDay, while lastDay is today or yesterday in the zone asked for (else 0)",
    ),
    longest: count.describe("the longest run of consecutive kept days, within the history's retention"),
    lastDay: z.iso
      .date()
      .optional()
      .describe("the latest kept day (the producer's calendar day); absent when none"),
  })
  .describe("the reader's streak: kept days are the days of paid, unrevoked streak.day awards");

const isoWeek = z
  .string()
  .regex(/^\d{4}-W\d{2}$/)
  .describe("an ISO week (from Monday 00:00 UTC), YYYY-Www, e.g. 2026-W49");

export const profileWeekSchema = z
  .object({
    week: isoWeek.describe("the current ISO week (UTC)"),
    xp: count.describe("XP of the awards earned this week (their event's UTC day), less the revoked ones"),
    rank: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe("the reader's rank on this week's board; only with XP this week and within the top 1,000"),
  })
  .describe("the reader's week on the board");

export const profileSchema = z
  .object({
    userId: z.string().min(1),
    xp: z
      .number()
      .int()
      .describe("the user's XP: the XP paid for their awards, less that of the revoked ones"),
    awards: count.describe(
      "the number of awards committed, 0-XP ones included (the daily cap left nothing to pay), less the revoked ones",
    ),
    counts: countsSchema,
    streak: streakSchema,
    level: levelSchema,
    today: todaySchema,
    week: profileWeekSchema,
    updatedAt: instant.optional().describe("the profile's last change; absent for a user never awarded"),
  })
  .describe(
    "a user's profile: XP, awards and their counts per type, level, today's XP; an unknown user is a new reader with 0 XP",
  );

export type Profile = z.infer<typeof profileSchema>;
export type Counts = z.infer<typeof countsSchema>;
export type Streak = z.infer<typeof streakSchema>;
export type ProfileWeek = z.infer<typeof profileWeekSchema>;

export const boardEntrySchema = z
  .object({
    rank: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .describe("1 + the readers with more XP: equal XP share a rank (1, 2, 2, 4)"),
    userId: z.string().min(1),
    xp: z
      .number()
      .int()
      .positive()
      .describe("XP of the reader's awards earned that week, less the revoked ones"),
  })
  .describe("one reader on the week's board");

export const boardSchema = z
  .object({
    week: isoWeek.describe("the board's ISO week"),
    entries: z
      .array(boardEntrySchema)
      .describe("most XP first, equal XP by userId; only ranks up to 1,000 are listed"),
    cursor: z.string().min(1).optional().describe("pass it back for the next page; absent on the last page"),
  })
  .describe("one page of a week's board: the readers with XP that week");

export type BoardEntryView = z.infer<typeof boardEntrySchema>;
export type Board = z.infer<typeof boardSchema>;

export const achievementSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .describe("first-article, articles-10, articles-100, first-share, streak-7, streak-30, level-<n>"),
    title: z.string().min(1),
    earnedAt: instant.describe(
      "when it was earned: the crossing award's awardedAt, or when a backfill found it",
    ),
    grantId: z.string().min(1).optional().describe("the id of the award that crossed it, when there is one"),
  })
  .describe("an achievement: earned once, never taken back");

export const achievementsSchema = z
  .object({ achievements: z.array(achievementSchema).describe("newest earnedAt first") })
  .describe("a reader's achievements");

export type Achievement = z.infer<typeof achievementSchema>;
export type Achievements = z.infer<typeof achievementsSchema>;

export const historyAwardSchema = z
  .object({
    id: z.string().min(1).describe("the award's id: the id of its reward.granted announcement"),
    type: z.string().min(1).describe("the event type the award is for, e.g. article.completed"),
    data: z
      .record(z.string(), z.unknown())
      .describe("the event's data without userId: {articleSlug}, {articleSlug, channel}, {day} or {}"),
    xp: count.describe("XP paid (0 when the daily cap left nothing)"),
    requestedXp: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("the rule's XP, only when the daily cap paid less"),
    eventId: z.string().min(1).describe("the event's id"),
    eventTime: instant.describe("when the event happened"),
    earnedOn: utcDay.describe("the UTC date of eventTime: the day the award counts toward"),
    awardedAt: instant.describe("when the award was committed"),
    revokedAt: instant.optional().describe("when it was revoked; only for a revoked award"),
    revokedReason: z.string().optional().describe("why it was revoked; only for a revoked award"),
  })
  .describe("one award in a user's history");

export type HistoryAward = z.infer<typeof historyAwardSchema>;

/** The same schema under a shorter name. */
export const awardSchema = historyAwardSchema;

export const historyPageSchema = z
  .object({
    awards: z.array(historyAwardSchema).describe("newest awardedAt first"),
    cursor: z.string().min(1).optional().describe("pass it back for the next page; absent on the last page"),
  })
  .describe("one page of a user's award history");

export type HistoryPage = z.infer<typeof historyPageSchema>;
