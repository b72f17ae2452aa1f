import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { AWARD_SK_PREFIX, userIdSchema } from "@rewards/core";
import { partitionItems } from "@rewards/core/aws";

/**
 * A reader's profile against their history: the profile's `awards` (every award not revoked,
 * counted in the award's own transaction) and the history's standing items (written by the
 * history's writer from the stream, later). They differ while the writer is behind that reader.
 */
export type HistoryLag = { profileAwards: number; historyAwards: number } & (
  | { kind: "inStep" }
  /** Awards the profile counts that the history does not hold yet. */
  | { kind: "awardsMissing"; missing: number }
  /** Standing items the profile no longer counts: revocations not in the history yet (or a count to repair). */
  | { kind: "revocationsMissing"; extra: number }
);

/** Pure: how the profile's count and the history's standing awards compare. */
export function historyLagOf(profileAwards: number, historyAwards: number): HistoryLag {
  const counts = { profileAwards, historyAwards };
  if (profileAwards > historyAwards)
    return { kind: "awardsMissing", missing: profileAwards - historyAwards, ...counts };
  if (profileAwards < historyAwards)
    return { kind: "revocationsMissing", extra: historyAwards - profileAwards, ...counts };
  return { kind: "inStep", ...counts };
}

/**
 * The reader's standing history items (not revoked), read consistently, every page. Read it
 * before the profile: an award committed between the two reads is then one the history does
 * not hold yet (true when shown), never a revocation the history seems to miss.
 */
export async function standingHistoryAwards(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
): Promise<number> {
  // An id the events refuse was never paid, so it has no history: the reader names the refusal.
  if (!userIdSchema.safeParse(userId).success) return 0;
  const items = await partitionItems({ dynamo, tableName }, userId, AWARD_SK_PREFIX);
  return items.filter((item) => item.revokedAt === undefined).length;
}

const awards = (n: number) => `${n} ${n === 1 ? "award" : "awards"}`;

/** Pure: the line `rewards user` shows when they differ (none when in step). */
export function historyLagLine(lag: HistoryLag): string | undefined {
  if (lag.kind === "awardsMissing")
    return `${awards(lag.missing)} not yet in the history: its writer is behind (\`rewards status\`)`;
  if (lag.kind === "revocationsMissing")
    return `${awards(lag.extra)} more in the history than the profile counts: a revocation not in it yet, or a count to repair`;
  return undefined;
}
