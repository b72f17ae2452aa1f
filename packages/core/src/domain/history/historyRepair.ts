import type { GuardImage } from "../announce/rewardGranted";
import { isRfc3339DateTime } from "../events/rfc3339";
import { isExpired } from "../table/storedGuard";
import { type HistoryItem, type HistoryOptions, historyItemOf } from "./historyItem";

/**
 * What a rebuild of the history does with one guard's award (docs/operations.md, "Rebuilding
 * the history"):
 * - `unchanged`: its item is already what the writer writes for this guard; no write.
 * - `missing`: no item; write `item`.
 * - `wrong`: an item that differs from `item` in `fields` (attribute names, sorted); rewrite it.
 * - `expired`: the item's retention (awardedAt + REWARDS_HISTORY_DAYS) has passed: DynamoDB's
 *   TTL deletes such an item, so none is written, and one still there is left to the sweeper.
 *
 * `keptRevocation`: the item is revoked and the guard is not; the item's revocation is kept.
 *
 * An existing item keeps its own retention (`expiresAt`, or none): the writer set it from the
 * stage's REWARDS_HISTORY_DAYS when it wrote the item, and never rewrites an item for a later
 * setting either. So a rebuild run with another setting than the stage's (the shell's default,
 * say) repairs what an award says and cannot shorten a history kept forever into one the TTL
 * deletes. Only a missing item takes the retention of `options`.
 */
export type HistoryRepair =
  | { kind: "unchanged"; keptRevocation: boolean }
  | { kind: "missing"; item: HistoryItem }
  | { kind: "wrong"; item: HistoryItem; fields: string[]; keptRevocation: boolean }
  | { kind: "expired" };

export interface HistoryRepairOptions extends HistoryOptions {
  /** Epoch ms: what "expired" is judged against, as the TTL judges it. */
  nowMs: number;
}

/** A value as text with its object keys sorted, so two equal values read the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The attributes whose values differ between two items (one missing in either counts), sorted. */
function differingFields(want: Readonly<Record<string, unknown>>, have: Readonly<Record<string, unknown>>) {
  const names = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...names].filter((name) => canonical(want[name]) !== canonical(have[name])).sort();
}

/**
 * The repair of the history item of `guard`'s award, given the item the table holds under
 * its key (`existing`, undefined when there is none). Pure.
 *
 * The item wanted is `historyItemOf(guard)`, the writer's own derivation, with one exception
 * that follows the writer's rule "an older image never removes a later revocation": when the
 * existing item is revoked and the guard is not, the item's `revokedAt` and `revokedReason`
 * are kept. Nothing un-revokes a guard (a revocation is final, and the guard stays until it
 * expires), so a revoked item under an unrevoked guard was written from a revoked image of it:
 * the guard read is the older one (a scan that ran before the revocation committed), or the
 * guard was edited by hand after the profile had given the XP back. Either way the revocation
 * happened, and un-revoking it would only be undone by the next copy of the revoked image.
 */
export function historyRepairOf(
  guard: GuardImage,
  existing: Readonly<Record<string, unknown>> | undefined,
  options: HistoryRepairOptions,
): HistoryRepair {
  const derived = historyItemOf(guard, options);
  if (isExpired(derived, options.nowMs)) return { kind: "expired" };
  if (existing === undefined) return { kind: "missing", item: derived };
  const revokedAt = existing.revokedAt;
  const keptRevocation =
    derived.revokedAt === undefined && typeof revokedAt === "string" && isRfc3339DateTime(revokedAt);
  const { expiresAt: _derivedRetention, ...content } = derived;
  const item: HistoryItem = keptRevocation ? { ...content, revokedAt } : { ...content };
  if (keptRevocation && typeof existing.revokedReason === "string" && existing.revokedReason !== "")
    item.revokedReason = existing.revokedReason;
  if (typeof existing.expiresAt === "number") item.expiresAt = existing.expiresAt;
  const fields = differingFields(item, existing);
  if (fields.length === 0) return { kind: "unchanged", keptRevocation };
  return { kind: "wrong", item, fields, keptRevocation };
}
