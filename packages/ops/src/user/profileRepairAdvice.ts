import { countAttribute, eventTypes, profileKey, quoteInput } from "@rewards/core";

/** A profile item as stored, whatever it holds. */
export type StoredProfile = Record<string, unknown>;

/**
 * A count of a profile that no repair can write back: its `awards` present but not a whole
 * number ≥ 0, else a count per event type (`count:<type>`, docs/reading.md#counts) present
 * but not a whole number. Absent is mendable: the worker's first award writes it, so a
 * profile without it was never paid an award (of that type), and its count is 0.
 */
export function wrongAwardsCount(profile: StoredProfile): { attribute: string; found: unknown } | undefined {
  const { awards } = profile;
  if (awards !== undefined && !(Number.isInteger(awards) && (awards as number) >= 0))
    return { attribute: "awards", found: awards };
  const attribute = eventTypes
    .map(countAttribute)
    .find((name) => profile[name] !== undefined && !Number.isInteger(profile[name]));
  return attribute === undefined ? undefined : { attribute, found: profile[attribute] };
}

/** `the profile of user "u" (USER#u) has awards "three", not a count of awards` (or `has count:<type> …`). */
export function awardsProblem(userId: string, found: unknown, attribute = "awards"): string {
  return `the profile of user ${quoteInput(userId)} (${profileKey(userId).pk}) has ${attribute} ${quoteInput(found)}, not a count of awards`;
}

/**
 * What mends a stored profile the reader refused, as the clause `rewards user` adds to the
 * reader's error: `--set-xp` where it mends everything the reader reads (xp, updatedAt, a
 * missing awards count), else what it cannot (a wrong awards count, or count per type).
 */
export function profileRepairAdvice(userId: string, profile: Record<string, unknown> | undefined): string {
  // Gone since the reader read it: nothing left to mend.
  if (profile === undefined) return "";
  const wrong = wrongAwardsCount(profile);
  if (wrong !== undefined)
    return `; ${awardsProblem(userId, wrong.found, wrong.attribute)}, which no rewards command can know: set it by hand (docs/operations.md#repairing-a-profile)`;
  return `; repair it with \`rewards user ${shellWord(userId)} --set-xp <n> --yes\``;
}

/** `userId` as one shell word: bare when it is plainly safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
