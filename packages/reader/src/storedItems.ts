import { countAttribute, countsOfProfile, eventTypes, quoteInput } from "@rewards/core";
import { z } from "zod";
import { type Achievement, type Counts, type HistoryAward, historyAwardSchema } from "./readerSchemas";
import { UnreadableItemError } from "./unreadableItemError";

/** Each event type's count on the profile (`countAttribute`): absent until that type's first award. */
const storedCountsShape = Object.fromEntries(
  eventTypes.map((type) => [countAttribute(type), z.number().int().optional()]),
);

/** The profile item's attributes the reader uses (docs/reading.md#the-items-it-reads). */
const storedProfileSchema = z.looseObject({
  xp: z.number().int(),
  awards: z.number().int().nonnegative(),
  updatedAt: z.string().optional(),
  ...storedCountsShape,
});

/** A day total's (docs/awards.md#the-daily-cap). */
const storedDaySchema = z.object({ xp: z.number().int().nonnegative() });

/** What the reader needs of a history item to sum today's XP. */
const storedEarningSchema = z.object({
  type: z.string(),
  xp: z.number().int().nonnegative(),
  earnedOn: z.string(),
});

type Item = Record<string, unknown>;

function keyOf(item: Item): { pk: string; sk: string } {
  return { pk: String(item.pk), sk: String(item.sk) };
}

function parsed<T>(schema: z.ZodType<T>, item: Item): T {
  const result = schema.safeParse(item);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UnreadableItemError(
    keyOf(item),
    `${issue?.path.join(".") || "item"}: ${issue?.message ?? "invalid"} (${quoteInput(item[String(issue?.path[0])])})`,
  );
}

/** What the reader takes from a profile item. */
export interface StoredProfile {
  xp: number;
  awards: number;
  /** Every event type's, 0 where the item has none. */
  counts: Counts;
  updatedAt?: string;
}

/** A profile item's XP, awards, counts per event type and last change; throws UnreadableItemError. */
export function readProfileItem(item: Item): StoredProfile {
  const { xp, awards, updatedAt, ...stored } = parsed(storedProfileSchema, item);
  return { xp, awards, counts: countsOf(stored), ...(updatedAt === undefined ? {} : { updatedAt }) };
}

/** What the profile of a user never awarded reads as: a new reader, every count 0 (a new object each time). */
export const newReader = (): StoredProfile => ({ xp: 0, awards: 0, counts: countsOf({}) });

/**
 * Every event type's count, 0 where the profile has none. A count below 0 reads as 0: a
 * revocation takes 1 off its type's count, so revoking an award paid before the profile kept
 * counts (docs/reading.md#counts) leaves −1 where there was none.
 */
function countsOf(stored: Record<string, unknown>): Counts {
  const counts: Record<string, number> = Object.fromEntries(eventTypes.map((type) => [type, 0]));
  // A site's own types too (docs/rules.md): every count the profile holds.
  for (const [type, count] of Object.entries(countsOfProfile(stored))) counts[type] = Math.max(0, count);
  return counts as Counts;
}

export function readDayItem(item: Item): number {
  return parsed(storedDaySchema, item).xp;
}

export function readEarning(item: Item): z.infer<typeof storedEarningSchema> {
  return parsed(storedEarningSchema, item);
}

/** A reader's kept days (docs/reading.md#streaks): a set of day numbers; none when the item is absent. */
const storedStreakSchema = z.object({ days: z.set(z.number().int()).optional() });

export function readStreakItem(item: Item | undefined): number[] {
  return item === undefined ? [] : [...(parsed(storedStreakSchema, item).days ?? [])];
}

/** A week item's (docs/board.md#the-week-item): the week's XP, written by the history's writer. */
const storedWeekSchema = z.object({ xp: z.number().int().nonnegative() });

/** The week's XP; 0 without an item (no award that week yet). */
export function readWeekItem(item: Item | undefined): number {
  return item === undefined ? 0 : parsed(storedWeekSchema, item).xp;
}

/** An achievement item (docs/reading.md#achievements). */
const storedAchievementSchema = z.object({
  achievement: z.string().min(1),
  title: z.string().min(1),
  earnedAt: z.iso.datetime({ offset: true }),
  grantId: z.string().min(1).optional(),
});

export function readAchievementItem(item: Item): Achievement {
  const { achievement, title, earnedAt, grantId } = parsed(storedAchievementSchema, item);
  return { id: achievement, title, earnedAt, ...(grantId === undefined ? {} : { grantId }) };
}

/** A history item as the reader answers it: its key, intent key and TTL left out. */
export function readHistoryItem(item: Item): HistoryAward {
  return parsed(historyAwardSchema, item);
}
