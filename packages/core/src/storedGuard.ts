import { z } from "zod";
import { describeIssues, toIssues } from "./decodeEvent";
import { GUARD_PK_PREFIX, GUARD_SK } from "./intentKey";
import { isRfc3339DateTime } from "./rfc3339";

const rfc3339 = z.string().refine(isRfc3339DateTime, "must be an RFC 3339 date-time");

/** A guard item as a consistent GetItem returns it (§5), with the intent key taken from its `pk`. */
export const storedGuardSchema = z
  .object({
    pk: z.string().startsWith(GUARD_PK_PREFIX),
    sk: z.literal(GUARD_SK),
    userId: z.string().min(1),
    type: z.string().min(1),
    /** 0 when the daily cap left nothing to pay (§3a). */
    amount: z.number().int().nonnegative(),
    requested: z.number().int().positive().optional(),
    eventId: z.string().min(1),
    messageId: z.string().optional(),
    awardedAt: rfc3339,
    /** Epoch seconds; absent when the guard is kept forever. */
    expiresAt: z.number().int().optional(),
    revokedAt: rfc3339.optional(),
    revokedReason: z.string().optional(),
  })
  .transform(({ pk, ...rest }) => ({ intentKey: pk.slice(GUARD_PK_PREFIX.length), ...rest }));

export type StoredGuard = z.output<typeof storedGuardSchema>;

export type ReadGuard = { ok: true; guard: StoredGuard } | { ok: false; reason: string };

/** The item as a guard, or why it is not one (a hand-edited item, say). Pure. */
export function readGuard(item: Record<string, unknown>): ReadGuard {
  const parsed = storedGuardSchema.safeParse(item);
  if (!parsed.success)
    return { ok: false, reason: `unreadable guard: ${describeIssues(toIssues(parsed.error.issues))}` };
  return { ok: true, guard: parsed.data };
}

/** Whether the guard still counts at `nowMs`: the worker's put treats `expiresAt < now` (seconds) as gone (§5). */
export function isExpired(guard: { expiresAt?: number | undefined }, nowMs: number): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent (undefined < n is false); the check is the type checker's
  return guard.expiresAt !== undefined && guard.expiresAt < Math.floor(nowMs / 1000);
}
