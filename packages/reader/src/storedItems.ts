import { z } from "zod";
import { type HistoryAward, historyAwardSchema } from "./readerSchemas";
import { UnreadableItemError } from "./unreadableItemError";

/** The profile item's attributes the reader uses (docs/reading.md#the-items-it-reads). */
const storedProfileSchema = z.object({
  xp: z.number().int(),
  awards: z.number().int().nonnegative(),
  updatedAt: z.string().optional(),
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
    `${issue?.path.join(".") || "item"}: ${issue?.message ?? "invalid"} (${JSON.stringify(item[String(issue?.path[0])])})`,
  );
}

export function readProfileItem(item: Item): z.infer<typeof storedProfileSchema> {
  return parsed(storedProfileSchema, item);
}

export function readDayItem(item: Item): number {
  return parsed(storedDaySchema, item).xp;
}

export function readEarning(item: Item): z.infer<typeof storedEarningSchema> {
  return parsed(storedEarningSchema, item);
}

/** A history item as the reader answers it: its key, intent key and TTL left out. */
export function readHistoryItem(item: Item): HistoryAward {
  return parsed(historyAwardSchema, item);
}
