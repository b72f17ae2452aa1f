import { countAttribute, eventTypes, REVOKED_ATTRIBUTE } from "@rewards/core";
import { z } from "zod";

/**
 * What the history's writer reads of a reader's profile and progress item to decide their
 * achievements (needsTimeline, settleAchievements). A reader whose items are not this cannot be
 * derived: their records fail, are retried and given up (`rewards history failures`), never
 * skipped in silence (docs/history.md, "A reader it cannot derive").
 */
const count = z.number().int();
const profileSchema = z.looseObject({
  xp: count,
  awards: count.nonnegative(),
  [REVOKED_ATTRIBUTE]: count.nonnegative().optional(),
  ...Object.fromEntries(eventTypes.map((type) => [countAttribute(type), count.optional()])),
});
const progressSchema = z.looseObject({
  days: z.set(z.number().int()).optional(),
  achievements: z.set(z.string()).optional(),
});

/** Why `item` (the profile or the progress item) cannot be read, naming the attribute and what it holds; undefined when it can. */
function problemOf(what: string, schema: z.ZodType, item: Record<string, unknown> | undefined) {
  if (item === undefined) return undefined;
  const parsed = schema.safeParse(item);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const attribute = String(issue?.path[0] ?? "");
  return `${what} ${String(item.pk)} is unreadable: ${attribute} is ${JSON.stringify(item[attribute] instanceof Set ? [...(item[attribute] as Set<unknown>)] : item[attribute]) ?? "absent"} (${issue?.message ?? "invalid"})`;
}

/** Why a reader's profile or progress item cannot be read, or undefined (absent items are a reader not yet paid, or no days kept). */
export function unreadableReader(
  profile: Record<string, unknown> | undefined,
  progress: Record<string, unknown> | undefined,
): string | undefined {
  return (
    problemOf("the profile", profileSchema, profile) ??
    problemOf("the progress item", progressSchema, progress)
  );
}
