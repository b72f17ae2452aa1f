import { awardsProblem, wrongAwardsCount } from "./repairProfileXp";

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
