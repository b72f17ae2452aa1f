import { type Announcement, type GuardImage, rewardGranted, rewardRevoked } from "@rewards/core";

export type GuardAnnouncements = { ok: true; announcements: Announcement[] } | { ok: false; reason: string };

/**
 * Pure: what a guard announced, in the order it was announced — its award's `reward.granted`
 * (when it paid XP: a capped-to-0 award announced nothing), then, when it was revoked, its
 * `reward.revoked`. A consumer needs both: the revocation undoes the grant of the same
 * intent and awardedAt. Each keeps the id the announcer gave it.
 */
export function guardAnnouncements(guard: GuardImage): GuardAnnouncements {
  // Only an award the daily cap left at 0 (`requested` says what its rule asked) announced nothing;
  // a rule that pays 0 is announced with xp 0 (docs/rules.md), as the announcer does.
  const announcements: Announcement[] =
    guard.amount > 0 || guard.requested === undefined ? [rewardGranted(guard)] : [];
  if (guard.revokedAt === undefined) return { ok: true, announcements };
  if (guard.revokedReason === undefined)
    return { ok: false, reason: "revokedReason: a revoked guard must say why" };
  announcements.push(
    rewardRevoked({ ...guard, revokedAt: guard.revokedAt, revokedReason: guard.revokedReason }),
  );
  return { ok: true, announcements };
}
