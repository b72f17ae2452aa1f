/**
 * Where the history lives (docs/history.md#the-item): one item per award in the user's own partition,
 * `pk = USER#<userId>`, `sk = AWARD#<awardedAt>#<grant id>`, so a page is one Query and
 * the sort key orders a user's awards by awardedAt. The layout itself is core's
 * (`tableLayout.ts`), which the history's writer writes by.
 */
import { AWARD_SK_PREFIX, profileKey } from "@rewards/core";

export { AWARD_SK_PREFIX };

/** The user's partition key (the profile's, the day totals' and the history's). */
export function userPartition(userId: string): string {
  return profileKey(userId).pk;
}

/** A sort key above every award's (`~` sorts after the digits an ISO instant starts with). */
export const AWARD_SK_END = `${AWARD_SK_PREFIX}~`;
