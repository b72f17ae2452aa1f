import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type PublishDeps, publishGrants } from "@rewards/announcer";
import { NO_DEADLINE } from "@rewards/core/aws";
import type { GuardWindow } from "../guardPages";
import { awardedGuards } from "./awardedGuards";

export interface RepublishOptions extends GuardWindow {
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  /** Absent: only count what would be published (--dry-run). */
  publish?: PublishDeps | undefined;
}

export interface RepublishReport {
  /** Awards in the window that announced something (each one guard), and of those, revoked (a grant and a revocation each). */
  found: number;
  revoked: number;
  /** Events published (a revoked award's two count two). */
  published: number;
  /** Guards the announcer could not read (never published), and grants the bus refused. */
  unreadable: Array<{ pk: string; reason: string }>;
  failed: Array<{ id: string; reason: string }>;
}

/**
 * Announces again, from the table, every award whose guard says it was committed in a time
 * window — its reward.granted, and for a revoked award its reward.revoked after it: the way back when the stream no longer holds a given-up batch (24 hours). The
 * guard is the award's record, so each event carries the id it had the first time:
 * consumers that deduplicate on it see nothing new.
 */
export async function republishFromTable(options: RepublishOptions): Promise<RepublishReport> {
  const report: RepublishReport = { found: 0, revoked: 0, published: 0, unreadable: [], failed: [] };
  for await (const page of awardedGuards(options.dynamo, options.tableName, options)) {
    const revocations = page.announcements.filter((a) => a.type === "reward.revoked").length;
    report.found += page.awards;
    report.revoked += revocations;
    report.unreadable.push(...page.unreadable);
    if (!options.publish || page.announcements.length === 0) continue;
    const unpublished = await publishGrants(
      options.publish,
      page.announcements.map((grant) => ({ key: grant.id, grant })),
      NO_DEADLINE,
    );
    for (const [id, { reason }] of unpublished) report.failed.push({ id, reason });
    report.published += page.announcements.length - unpublished.size;
  }
  return report;
}
