import { isDeepStrictEqual } from "node:util";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RewardGranted } from "@rewards/core";
import { awardedGuards } from "@rewards/ops";

export interface GrantCheck {
  /** Awards the table records (its guards). */
  awards: number;
  /** Distinct ids received, and copies in all. */
  announced: number;
  copies: number;
  /** Awards no event announced; ids that name no award (a duplicate's, a parked message's). */
  missing: string[];
  unexpected: string[];
  /** Ids whose copies differ: one award, one event, however often it is sent. */
  inconsistent: string[];
}

/**
 * Whether the events received are exactly the table's awards: every award announced, by the
 * id its guard gives it, nothing else announced, and every copy of an id the same event.
 * (For a run in which no guard expired and was replaced: the table keeps the latest award
 * of an intent only.)
 */
export async function checkGrants(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  received: readonly RewardGranted[],
): Promise<GrantCheck> {
  const expected = new Map<string, RewardGranted>();
  for await (const page of awardedGuards(dynamo, tableName)) {
    for (const grant of page.grants) expected.set(grant.id, grant);
  }
  const seen = new Map<string, RewardGranted>();
  const inconsistent = new Set<string>();
  for (const grant of received) {
    const earlier = seen.get(grant.id) ?? expected.get(grant.id);
    if (earlier && !isDeepStrictEqual(earlier, grant)) inconsistent.add(grant.id);
    seen.set(grant.id, grant);
  }
  return {
    awards: expected.size,
    announced: seen.size,
    copies: received.length,
    missing: [...expected.keys()].filter((id) => !seen.has(id)),
    unexpected: [...seen.keys()].filter((id) => !expected.has(id)),
    inconsistent: [...inconsistent],
  };
}
