import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  guardImageSchema,
  toIssues,
} from "@rewards/core";
import { scanTable } from "../tableScan";

export interface GuardPage {
  /** The page's guards, read as the history's writer reads a stream image. */
  guards: GuardImage[];
  /** Guards the writer could not read either (it never wrote their history). */
  unreadable: Array<{ pk: string; reason: string }>;
}

/**
 * Every guard on the table, or every guard of one user, page by page: a scan, since no index
 * finds a user's guards (docs/operations.md, "Rebuilding the history", says what it costs).
 * Eventually consistent (half the read units of a consistent scan): what a guard decides is
 * checked against its history item read consistently, and written with the writer's own
 * condition, so a guard read just before its revocation revokes nothing back (see
 * historyRepairOf).
 */
export async function* guardPages(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId?: string,
): AsyncGenerator<GuardPage> {
  const values: Record<string, string> = { ":guard": GUARD_PK_PREFIX, ":idem": GUARD_SK };
  if (userId !== undefined) values[":user"] = userId;
  const pages = scanTable(dynamo, {
    TableName: tableName,
    FilterExpression: `begins_with(pk, :guard) AND sk = :idem${userId === undefined ? "" : " AND userId = :user"}`,
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
