import { z } from "zod";
import { userIdSchema } from "../events/envelope";
import { text } from "../events/text";

const DAY_SECONDS = 24 * 60 * 60;

/** `YYYY-MM-DD` that is a real calendar day (2026-02-30 is rejected). */
const calendarDay = z.iso.date();

const slug = text(1, 512);

/**
 * The reward rules (docs/events.md): one row per event type. The worker decides the XP; any
 * `amount`/`xp` a producer puts in `data` is stripped by these schemas and never read.
 */
export const rules = {
  "article.completed": {
    schema: z.object({ userId: userIdSchema, articleSlug: slug }),
    xp: 20,
    keyParts: (data: { userId: string; articleSlug: string }) => [
      data.userId,
      data.articleSlug,
      "article.completed",
    ],
    guardTtlSeconds: 90 * DAY_SECONDS,
    dailyCapped: true,
  },
  "article.shared": {
    schema: z.object({
      userId: userIdSchema,
      articleSlug: slug,
      channel: text(1, 64),
    }),
    xp: 5,
    keyParts: (data: { userId: string; articleSlug: string; channel: string }) => [
      data.userId,
      data.articleSlug,
      data.channel,
      "article.shared",
    ],
    guardTtlSeconds: 90 * DAY_SECONDS,
    dailyCapped: true,
  },
  "streak.day": {
    schema: z.object({ userId: userIdSchema, day: calendarDay }),
    xp: 10,
    keyParts: (data: { userId: string; day: string }) => [data.userId, data.day, "streak.day"],
    /** The intent is one calendar day, which ages like the event's time (docs/events.md, "Event time"). */
    day: (data: { day: string }) => data.day,
    guardTtlSeconds: 90 * DAY_SECONDS,
    dailyCapped: true,
  },
  "signup.completed": {
    schema: z.object({ userId: userIdSchema }),
    xp: 100,
    keyParts: (data: { userId: string }) => [data.userId, "signup.completed"],
    /** Kept forever: a signup is paid once per user, ever. */
    guardTtlSeconds: undefined,
    /** A welcome, not earning: the daily cap (docs/awards.md, "The daily cap") never cuts it. */
    dailyCapped: false,
  },
} as const;

export type EventType = keyof typeof rules;

/** The longest memory of any rule that counts toward the daily cap: how long a day's total must outlive its day. */
export const LONGEST_CAPPED_MEMORY_SECONDS = Math.max(
  ...Object.values(rules).flatMap((rule) =>
    rule.dailyCapped && rule.guardTtlSeconds ? [rule.guardTtlSeconds] : [],
  ),
);
export type RuleData<T extends EventType> = z.infer<(typeof rules)[T]["schema"]>;

export const eventTypes = Object.keys(rules) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(rules, type);
}

/**
 * The intent key parts of `data` that `type`'s schema has already validated. (One cast, here:
 * TypeScript cannot tie a runtime `type` to its row's parameter type.)
 */
export function keyPartsOf(type: EventType, validatedData: unknown): string[] {
  return (rules[type].keyParts as (data: unknown) => string[])(validatedData);
}

/** The calendar day the intent is about, for rules whose intent is a day (`streak.day`). */
export function dayOf(type: EventType, validatedData: unknown): string | undefined {
  const rule = rules[type];
  return "day" in rule ? rule.day(validatedData as { day: string }) : undefined;
}
