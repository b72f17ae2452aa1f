import { profileKey } from "@rewards/core";

/** A profile item as stored, whatever it holds. */
export type StoredProfile = Record<string, unknown>;

/**
 * A profile's `awards` that no repair can write back: present, but not a whole number ≥ 0.
 * Absent is mendable: the worker's first award writes it, so a profile without it was never
 * paid an award, and its count is 0.
 */
export function wrongAwardsCount(profile: StoredProfile): { found: unknown } | undefined {
  const { awards } = profile;
  if (awards === undefined || (Number.isInteger(awards) && (awards as number) >= 0)) return undefined;
  return { found: awards };
}

/** `the profile of user "u" (USER#u) has awards "three", not a count of awards`. */
export function awardsProblem(userId: string, found: unknown): string {
  return `the profile of user ${JSON.stringify(userId)} (${profileKey(userId).pk}) has awards ${JSON.stringify(found)}, not a count of awards`;
}

/**
 * What mends a stored profile the reader refused, as the clause `rewards user` adds to the
 * reader's error: `--set-xp` where it mends everything the reader reads (xp, updatedAt, a
 * missing awards count), else what it cannot (a wrong awards count).
 */
export function profileRepairAdvice(userId: string, profile: Record<string, unknown> | undefined): string {
  // Gone since the reader read it: nothing left to mend.
  if (profile === undefined) return "";
  const wrong = wrongAwardsCount(profile);
  if (wrong !== undefined)
    return `; ${awardsProblem(userId, wrong.found)}, which no rewards command can know: set it by hand (docs/operations.md#repairing-a-profile)`;
  return `; repair it with \`rewards user ${shellWord(userId)} --set-xp <n> --yes\``;
}

/** `userId` as one shell word: bare when it is plainly safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
