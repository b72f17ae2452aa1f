import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { AWARD_SK_PREFIX, GUARD_PK_PREFIX, grantId, historyItemKey, intentKeyOfGuard } from "@rewards/core";
import { scanTable } from "@rewards/ops";

export interface HistoryCheck {
  /** Guards on the table: every award made (0 XP included). */
  guards: number;
  /** History items on the table. */
  items: number;
  /** Guards without exactly one history item of the same xp and revocation. */
  mismatched: string[];
}

/**
 * Every guard that paid (any guard, 0 XP included) has exactly one history item, under its
 * award's key, with the guard's xp and revocation; and no history item names no guard. The
 * table is read in pages of a few hundred items, so the check scales with the run.
 */
export async function checkHistory(dynamo: DynamoDBDocumentClient, tableName: string): Promise<HistoryCheck> {
  const guards: Record<string, unknown>[] = [];
  const items = new Map<string, Record<string, unknown>>();
  for await (const page of scanTable(dynamo, { TableName: tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) {
      if (String(item.pk).startsWith(GUARD_PK_PREFIX)) guards.push(item);
      else if (String(item.sk).startsWith(AWARD_SK_PREFIX)) items.set(`${item.pk}\u0000${item.sk}`, item);
    }
  }
  const mismatched: string[] = [];
  const matched = new Set<string>();
  for (const guard of guards) {
    const intentKey = intentKeyOfGuard(String(guard.pk));
    const awardedAt = String(guard.awardedAt);
    const key = historyItemKey(String(guard.userId), awardedAt, grantId(intentKey, awardedAt));
    const id = `${key.pk}\u0000${key.sk}`;
    const item = items.get(id);
    if (!item || item.xp !== guard.amount || item.revokedAt !== guard.revokedAt) mismatched.push(intentKey);
    else matched.add(id);
  }
  for (const id of items.keys()) if (!matched.has(id)) mismatched.push(id.replace("\u0000", " "));
  return { guards: guards.length, items: items.size, mismatched };
}
