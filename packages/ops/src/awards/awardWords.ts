import { plural } from "@rewards/core";
import type { AwardsListing, ListedAward } from "./awardPages";

/** One award for people, in `rewards revoke`'s words: the quoted key, then who, what and when. */
export function awardWords(award: ListedAward): string {
  const xp = award.requested === undefined ? `${award.xp} XP` : `${award.xp} of ${award.requested} XP (cap)`;
  const revoked = award.revokedAt === undefined ? "" : `, revoked at ${award.revokedAt}`;
  return `${JSON.stringify(award.intentKey)}: user ${award.userId}, ${award.type}, ${xp}, event ${award.eventId}, awarded at ${award.awardedAt}${revoked}`;
}

/**
 * Awards a line each: in words, or as `{"intentKey": …}`, the one line `rewards revoke` takes
 * that names an award by its key alone (revoke refuses any other field beside it).
 */
export function awardLines(awards: readonly ListedAward[], ndjson: boolean): string {
  return awards
    .map((award) => `${ndjson ? JSON.stringify({ intentKey: award.intentKey }) : awardWords(award)}\n`)
    .join("");
}

/** What a listing ends with: how many, what the scan cost, and how to go on when it stopped early (`stoppedBy`). */
export function describeAwards(listing: AwardsListing, stoppedBy: string): string {
  const units = `${listing.readUnits} read ${listing.readUnits === 1 ? "unit" : "units"} ${
    listing.estimated ? "(estimated: DynamoDB did not say)" : "(as DynamoDB reported)"
  }`;
  const unreadable =
    listing.unreadable.length > 0
      ? `, ${plural(listing.unreadable.length, "guard")} unreadable (--json names them)`
      : "";
  const lines = [`${plural(listing.listed, "award")} listed${unreadable}; ${units}`];
  if (listing.cursor !== undefined)
    lines.push(`stopped by ${stoppedBy} before the end of the table: go on with --from ${listing.cursor}`);
  return `${lines.join("\n")}\n`;
}
