import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  type AchievementItem,
  achievementItemSchema,
  achievementOfKey,
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  guardImageSchema,
  toIssues,
} from "@rewards/core";
import type { GuardWindow } from "../guardPages";
import { scanTable } from "../tableScan";

/** Which announcements: the awards' (`reward.granted`, `reward.revoked`), the achievements' (`reward.achieved`), or both. */
export type AnnouncingKind = "grants" | "achievements" | "all";

export interface AnnouncingWindow extends GuardWindow {
  /** Default `all`. */
  kind?: AnnouncingKind | undefined;
}

export interface AnnouncingPage {
  /** Guards whose awardedAt is in the window, read as the announcer reads a guard image. */
  guards: GuardImage[];
  /** Achievement items whose earnedAt is in the window, read as the announcer reads an achievement's INSERT. */
  achievements: AchievementItem[];
  /** Items the announcer could not read either (never announced): a guard's pk, an achievement's pk and sk. */
  unreadable: Array<{ pk: string; sk?: string; reason: string }>;
}

/** The filter of one kind of item in `window`: its time attribute in [since, until], its userId the user's. */
function kindFilter(base: string[], timeAttribute: string, window: GuardWindow): string {
  const conditions = [...base];
  if (window.since) conditions.push(`${timeAttribute} >= :since`);
  if (window.until) conditions.push(`${timeAttribute} <= :until`);
  if (window.userId) conditions.push("userId = :user");
  return `(${conditions.join(" AND ")})`;
}

/**
 * The items the announcer announces, in `window`, page by page: the guards committed in it
 * (`awardedAt`) and the achievement items earned in it (`earnedAt`), of one user or all. One
 * scan for both kinds (a filter costs nothing: a scan pays for every item it reads), as
 * guardPages is for guards: no index finds them by user or by time. Eventually consistent:
 * what reads them republishes harmlessly.
 */
export async function* announcingItems(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  window: AnnouncingWindow = {},
): AsyncGenerator<AnnouncingPage> {
  const kind = window.kind ?? "all";
  // Both kinds store their time as toISOString() does (UTC, ms), so text order is time order.
  const values: Record<string, string> = {};
  if (window.since) values[":since"] = window.since.toISOString();
  if (window.until) values[":until"] = window.until.toISOString();
  if (window.userId) values[":user"] = window.userId;
  const filters: string[] = [];
  if (kind !== "achievements") {
    values[":guard"] = GUARD_PK_PREFIX;
    values[":idem"] = GUARD_SK;
    filters.push(kindFilter(["begins_with(pk, :guard)", "sk = :idem"], "awardedAt", window));
  }
  if (kind !== "grants") {
    values[":achievement"] = ACHIEVEMENT_SK_PREFIX;
    filters.push(kindFilter(["begins_with(sk, :achievement)"], "earnedAt", window));
  }
  const pages = scanTable(dynamo, {
    TableName: tableName,
    FilterExpression: filters.join(" OR "),
    ExpressionAttributeValues: values,
  });
  for await (const page of pages) {
    const result: AnnouncingPage = { guards: [], achievements: [], unreadable: [] };
    for (const item of page.Items ?? []) {
      if (achievementOfKey(item.sk) !== undefined) {
        const read = achievementItemSchema.safeParse(item);
        if (read.success) result.achievements.push(read.data);
        else
          result.unreadable.push({
            pk: String(item.pk),
            sk: String(item.sk),
            reason: describeIssues(toIssues(read.error.issues)),
          });
        continue;
      }
      const guard = guardImageSchema.safeParse(item);
      if (guard.success) result.guards.push(guard.data);
      else
        result.unreadable.push({ pk: String(item.pk), reason: describeIssues(toIssues(guard.error.issues)) });
    }
    yield result;
  }
}
