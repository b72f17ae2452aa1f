import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  guardImageSchema,
  toIssues,
} from "@rewards/core";
import { scanTable } from "./tableScan";

/** Which guards: all, or those of one user, or committed in [since, until]. */
export interface GuardWindow {
  /** Awards committed in [since, until], compared as the guards store awardedAt (ISO 8601, UTC, ms). */
  since?: Date | undefined;
  until?: Date | undefined;
  userId?: string | undefined;
}

export interface GuardPage {
  /** The page's guards, read as the stream's consumers read a guard image. */
  guards: GuardImage[];
  /** Guards the consumers could not read either (never announced, no history written). */
  unreadable: Array<{ pk: string; reason: string }>;
}

/**
 * The table's guards in `window`, page by page: a scan, since no index finds guards by user or
 * by time (docs/operations.md says what it costs). Eventually consistent, half the read units
 * of a consistent scan: what reads them decides against a consistent read or a conditional
 * write of its own (the history's rebuild), or republishes harmlessly (`grants republish`).
 */
export async function* guardPages(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  window: GuardWindow = {},
): AsyncGenerator<GuardPage> {
  const conditions = ["begins_with(pk, :guard)", "sk = :idem"];
  const values: Record<string, string> = { ":guard": GUARD_PK_PREFIX, ":idem": GUARD_SK };
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
    const result: GuardPage = { guards: [], unreadable: [] };
    for (const item of page.Items ?? []) {
      const guard = guardImageSchema.safeParse(item);
      if (guard.success) result.guards.push(guard.data);
      else
        result.unreadable.push({ pk: String(item.pk), reason: describeIssues(toIssues(guard.error.issues)) });
    }
    yield result;
  }
}
