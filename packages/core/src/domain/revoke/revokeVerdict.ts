import { isExpired, readGuard, type StoredGuard } from "../table/storedGuard";

/**
 * What `rewards revoke` did to a line (docs/revoking.md#what-it-does-per-line). A dry run
 * says `would_revoke` where a run with `--yes` says `revoked`; the others read the same in
 * both.
 */
export type RevokeVerdict =
  | "revoked"
  | "would_revoke"
  | "already_revoked"
  | "not_found"
  | "invalid"
  | "failed"
  /** A later line of an intent an earlier line of the same input names: one revocation, not two. */
  | "copy";

export interface RevokeResult {
  /** 1-based line number in the input. */
  line: number;
  verdict: RevokeVerdict;
  intentKey?: string;
  userId?: string;
  /** The XP the award paid: taken back (`revoked`), to be taken back (`would_revoke`), or taken back earlier. */
  xp?: number;
  /** When it was revoked (`revoked`, `already_revoked`). */
  revokedAt?: string;
  revokedReason?: string;
  /** Why, for `not_found`, `invalid`, `failed` and `copy`. */
  reason?: string;
}

/** What a consistent read of an intent's guard says about revoking it now. */
export type GuardStanding =
  | { verdict: "revocable"; guard: StoredGuard }
  | { verdict: "revoked" | "already_revoked"; guard: StoredGuard & { revokedAt: string } }
  | { verdict: "not_found"; reason: string }
  | { verdict: "failed"; reason: string };

/** The revocation this run attempted, to recognise its own write when the answer was lost. */
export interface Attempted {
  /** The `revocationId` the attempt wrote: unique to it, unlike its `revokedAt` and reason. */
  revocationId: string;
}

/**
 * Judges the item a consistent GetItem returned for an intent's guard at `nowMs`. After a
 * cancelled or unanswered attempt, a guard carrying that attempt's `revocationId` is this run's
 * own revocation (`revoked`); any other revocation, even of the same millisecond and reason, is
 * someone else's (`already_revoked`). Pure.
 */
export function guardStanding(
  item: Record<string, unknown> | undefined,
  nowMs: number,
  attempted?: Attempted,
): GuardStanding {
  if (item === undefined)
    return { verdict: "not_found", reason: "no guard: never paid, or expired and swept" };
  const read = readGuard(item);
  if (!read.ok) return { verdict: "failed", reason: read.reason };
  const { guard } = read;
  if (isExpired(guard, nowMs))
    return {
      verdict: "not_found",
      reason: `guard expired at ${new Date((guard.expiresAt as number) * 1000).toISOString()} (not yet swept)`,
    };
  const { revokedAt } = guard;
  if (revokedAt === undefined) return { verdict: "revocable", guard };
  const mine = attempted !== undefined && guard.revocationId === attempted.revocationId;
  return { verdict: mine ? "revoked" : "already_revoked", guard: { ...guard, revokedAt } };
}

/** The line's result from its guard's judgement (`revocable` only in a dry run: `would_revoke`). */
export function resultOf(line: number, intentKey: string, judged: GuardStanding): RevokeResult {
  if (judged.verdict === "not_found" || judged.verdict === "failed")
    return { line, verdict: judged.verdict, intentKey, reason: judged.reason };
  const { guard } = judged;
  const award = { line, intentKey, userId: guard.userId, xp: guard.amount };
  if (judged.verdict === "revocable") return { ...award, verdict: "would_revoke" };
  return {
    ...award,
    verdict: judged.verdict,
    revokedAt: judged.guard.revokedAt,
    ...(guard.revokedReason === undefined ? {} : { revokedReason: guard.revokedReason }),
  };
}

export type RevokeCounts = Record<RevokeVerdict, number>;

/** Each verdict's count, every verdict present (0 when none). */
export function countVerdicts(results: Iterable<RevokeResult>): RevokeCounts {
  const counts: RevokeCounts = {
    revoked: 0,
    would_revoke: 0,
    already_revoked: 0,
    not_found: 0,
    invalid: 0,
    failed: 0,
    copy: 0,
  };
  for (const { verdict } of results) counts[verdict]++;
  return counts;
}
