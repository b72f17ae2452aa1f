import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type Announcement,
  describeIssues,
  GUARD_PK_PREFIX,
  guardImageSchema,
  type RewardGranted,
  toIssues,
} from "@rewards/core";
import { scanTable } from "../tableScan";
import { guardAnnouncements } from "./guardAnnouncements";

export interface GuardWindow {
  /** Awards committed in [since, until], compared as the guards store awardedAt (ISO 8601, UTC, ms). */
  since?: Date | undefined;
  until?: Date | undefined;
  userId?: string | undefined;
}

export type GuardPage = {
  /** What the page's guards announced, guard by guard: a grant, then its revocation when revoked. */
  announcements: Announcement[];
  /** Guards that announced something (an award: a capped-to-0 one that was never revoked announced nothing). */
  awards: number;
  /** The reward.granted among them. */
  grants: RewardGranted[];
  /** Guards the announcer could not read either (never announced). */
  unreadable: Array<{ pk: string; reason: string }>;
};

/**
 * Every guard in the table (a scan: it reads the whole table), page by page, as what its
 * award announced — the same events, ids included, as the announcer's: the
 * `reward.granted`, and for a revoked guard the `reward.revoked` too.
 */
export async function* awardedGuards(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  window: GuardWindow = {},
): AsyncGenerator<GuardPage> {
  const conditions = ["begins_with(pk, :guard)"];
  const values: Record<string, string> = { ":guard": GUARD_PK_PREFIX };
  if (window.since) {
    conditions.push("awardedAt >= :since");
    values[":since"] = window.since.toISOString();
  }
  if (window.until) {
    conditions.push("awardedAt <= :until");
    values[":until"] = window.until.toISOString();
  }
  if (window.userId) {
    conditions.push("userId = :user");
    values[":user"] = window.userId;
  }
  const pages = scanTable(dynamo, {
    TableName: tableName,
    FilterExpression: conditions.join(" AND "),
    ExpressionAttributeValues: values,
  });
  for await (const page of pages) {
    const result: GuardPage = { announcements: [], awards: 0, grants: [], unreadable: [] };
    for (const item of page.Items ?? []) {
      const guard = guardImageSchema.safeParse(item);
      const announced = guard.success
        ? guardAnnouncements(guard.data)
        : ({ ok: false, reason: describeIssues(toIssues(guard.error.issues)) } as const);
      if (!announced.ok) {
        result.unreadable.push({ pk: String(item.pk), reason: announced.reason });
        continue;
      }
      if (announced.announcements.length > 0) result.awards++;
      for (const announcement of announced.announcements) {
        result.announcements.push(announcement);
        if (announcement.type === "reward.granted") result.grants.push(announcement);
      }
    }
    yield result;
  }
}
