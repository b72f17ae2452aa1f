import { z } from "zod";
import { describeIssues, toIssues } from "../events/decodeEvent";
import { guardItemFields, intentKeyOfGuard } from "./tableLayout";

/** A guard item as a consistent GetItem returns it, with the intent key taken from its `pk`. */
export const storedGuardSchema = z
  .object(guardItemFields)
  .transform(({ pk, ...rest }) => ({ intentKey: intentKeyOfGuard(pk), ...rest }));

export type StoredGuard = z.output<typeof storedGuardSchema>;

export type ReadGuard = { ok: true; guard: StoredGuard } | { ok: false; reason: string };

/** The item as a guard, or why it is not one (a hand-edited item, say). Pure. */
export function readGuard(item: Record<string, unknown>): ReadGuard {
  const parsed = storedGuardSchema.safeParse(item);
  if (!parsed.success)
    return { ok: false, reason: `unreadable guard: ${describeIssues(toIssues(parsed.error.issues))}` };
  return { ok: true, guard: parsed.data };
}

/**
 * Whether the guard still counts at `nowMs`: the worker's put treats `expiresAt < now`
 * (seconds) as gone (docs/awards.md#one-transaction-per-user).
 */
export function isExpired(guard: { expiresAt?: number | undefined }, nowMs: number): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent (undefined < n is false); the check is the type checker's
  return guard.expiresAt !== undefined && guard.expiresAt < Math.floor(nowMs / 1000);
}
