import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  guardImageSchema,
  TTL_ATTRIBUTE,
  toIssues,
} from "@rewards/core";
import { scanTable } from "./tableScan";

/** Which guards: all, or those of one user, of one event type, or committed in [since, until]. */
export interface GuardWindow {
  /** Awards committed in [since, until], compared as the guards store awardedAt (ISO 8601, UTC, ms). */
  since?: Date | undefined;
  until?: Date | undefined;
  userId?: string | undefined;
  type?: string | undefined;
  /**
   * Only guards unexpired at this instant (epoch seconds), as the worker and `rewards revoke`
   * read them: an expired guard the TTL has not swept yet is gone for both.
   */
  liveAt?: number | undefined;
}

export interface GuardPage {
  /** The page's guards, read as the stream's consumers read a guard image. */
  guards: GuardImage[];
  /** Guards the consumers could not read either (never announced, no history written). */
  unreadable: Array<{ pk: string; reason: string }>;
  /** The key of the last item the page read (the scan resumes after it); absent on the last page. */
  lastKey?: Record<string, unknown>;
  /** The read units DynamoDB says the page cost; absent when it did not say. */
  readUnits?: number;
  /** Items the page read, the filter's rejects included, and the bytes of those it returned. */
  scanned: number;
  bytes: number;
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
  startKey?: Record<string, unknown>,
): AsyncGenerator<GuardPage> {
  const conditions = ["begins_with(pk, :guard)", "sk = :idem"];
  const values: Record<string, string | number> = { ":guard": GUARD_PK_PREFIX, ":idem": GUARD_SK };
  const names: Record<string, string> = {};
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
  if (window.type) {
    // TYPE is one of DynamoDB's reserved words.
    conditions.push("#type = :type");
    names["#type"] = "type";
    values[":type"] = window.type;
  }
  if (window.liveAt !== undefined) {
    conditions.push(`(attribute_not_exists(${TTL_ATTRIBUTE}) OR ${TTL_ATTRIBUTE} >= :liveAt)`);
    values[":liveAt"] = window.liveAt;
  }
  const pages = scanTable(
    dynamo,
    {
      TableName: tableName,
      FilterExpression: conditions.join(" AND "),
      ExpressionAttributeValues: values,
      ...(window.type ? { ExpressionAttributeNames: names } : {}),
      ReturnConsumedCapacity: "TOTAL",
    },
    startKey,
  );
  for await (const page of pages) {
    const result: GuardPage = {
      guards: [],
      unreadable: [],
      ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey } : {}),
      ...(page.ConsumedCapacity?.CapacityUnits === undefined
        ? {}
        : { readUnits: page.ConsumedCapacity.CapacityUnits }),
      scanned: page.ScannedCount ?? 0,
      bytes: (page.Items ?? []).reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0),
    };
    for (const item of page.Items ?? []) {
      const guard = guardImageSchema.safeParse(item);
      if (guard.success) result.guards.push(guard.data);
      else
        result.unreadable.push({ pk: String(item.pk), reason: describeIssues(toIssues(guard.error.issues)) });
    }
    yield result;
  }
}
