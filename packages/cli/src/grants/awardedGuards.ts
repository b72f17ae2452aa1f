import { type DynamoDBDocumentClient, paginateScan } from "@aws-sdk/lib-dynamodb";
import {
  describeIssues,
  GUARD_PK_PREFIX,
  guardImageSchema,
  type RewardGranted,
  rewardGranted,
  toIssues,
} from "@rewards/core";

export interface GuardWindow {
  /** Awards committed in [since, until], compared as the guards store awardedAt (ISO 8601, UTC, ms). */
  since?: Date | undefined;
  until?: Date | undefined;
  userId?: string | undefined;
}

export type GuardPage = {
  grants: RewardGranted[];
  /** Guards the announcer could not read either (never announced). */
  unreadable: Array<{ pk: string; reason: string }>;
};

/**
 * Every guard in the table (a scan: it reads the whole table), page by page, as the
 * `reward.granted` its award announced — the same event, id included, as the announcer's.
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
  const pages = paginateScan(
    { client: dynamo },
    { TableName: tableName, FilterExpression: conditions.join(" AND "), ExpressionAttributeValues: values },
  );
  for await (const page of pages) {
    const result: GuardPage = { grants: [], unreadable: [] };
    for (const item of page.Items ?? []) {
      const guard = guardImageSchema.safeParse(item);
      if (guard.success) {
        // Capped to 0 XP: the intent is spent, nothing was paid, nothing announced.
        if (guard.data.amount > 0) result.grants.push(rewardGranted(guard.data));
      } else
        result.unreadable.push({
          pk: String(item.pk),
          reason: describeIssues(toIssues(guard.error.issues)),
        });
    }
    yield result;
  }
}
