import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { AWARD_SK_PREFIX, profileKey } from "@rewards/core";
import type { HistoryAward, HistoryPage, Profile } from "@rewards/reader";

export interface ReadApiCheck {
  userId: string;
  /** What the API answered: the profile's XP and awards, and the awards its pages listed. */
  xp: number;
  awards: number;
  listed: number;
  /** Where the API and the table disagree (empty: they agree). */
  problems: string[];
}

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: answer.status, body: (await answer.json()) as T };
}

/**
 * The read API, as a site calls it, for one user: the profile and every page of the history
 * (joined by cursor), against what the table holds — the profile item and the user's history
 * items, read directly.
 */
export async function checkReadApi(
  readerUrl: string,
  userId: string,
  dynamo: DynamoDBDocumentClient,
  tableName: string,
): Promise<ReadApiCheck> {
  const base = `${readerUrl}/users/${encodeURIComponent(userId)}`;
  const problems: string[] = [];
  const profile = await getJson<Profile>(base);
  if (profile.status !== 200) problems.push(`GET /users/{userId} answered ${profile.status}`);
  const listed: HistoryAward[] = [];
  let cursor: string | undefined;
  do {
    const page = await getJson<HistoryPage>(
      `${base}/awards?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    if (page.status !== 200) {
      problems.push(`GET /users/{userId}/awards answered ${page.status}`);
      break;
    }
    listed.push(...page.body.awards);
    cursor = page.body.cursor;
  } while (cursor !== undefined);

  const item = (
    await dynamo.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }))
  ).Item;
  const stored: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        ConsistentRead: true,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
        ExpressionAttributeValues: { ":pk": profileKey(userId).pk, ":award": AWARD_SK_PREFIX },
        ExclusiveStartKey: start,
      }),
    );
    stored.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);

  if (profile.body.xp !== item?.xp || profile.body.awards !== item?.awards)
    problems.push(
      `profile ${profile.body.xp} XP / ${profile.body.awards} awards, table ${String(item?.xp)} / ${String(item?.awards)}`,
    );
  const newestFirst = [...stored].reverse().map((s) => s.id);
  if (JSON.stringify(listed.map((a) => a.id)) !== JSON.stringify(newestFirst))
    problems.push(
      `the history's pages list ${listed.length} awards, the table holds ${stored.length} (or in another order)`,
    );
  return { userId, xp: profile.body.xp, awards: profile.body.awards, listed: listed.length, problems };
}
