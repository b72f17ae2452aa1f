import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type PublishDeps, publishGrants } from "@rewards/announcer";
import { type Announcement, rewardAchieved } from "@rewards/core";
import { NO_DEADLINE } from "@rewards/core/aws";
import { type AnnouncingKind, type AnnouncingWindow, announcingItems } from "./announcingItems";
import { guardAnnouncements } from "./guardAnnouncements";

export interface RepublishOptions extends AnnouncingWindow {
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  /** Absent: only count what would be published (--dry-run). */
  publish?: PublishDeps | undefined;
}

export interface RepublishReport {
  /** Which items were read: guards (`grants`), achievement items (`achievements`), or both (`all`). */
  kind: AnnouncingKind;
  /** Awards in the window that announced something (each one guard), and of those, revoked (a grant and a revocation each). */
  found: number;
  revoked: number;
  /** Achievement items earned in the window (a reward.achieved each). */
  achievements: number;
  /** The events those items announce, what a run publishes: a revoked award's two count two. The same with --dry-run. */
  events: number;
  /** Events published (0 with --dry-run). */
  published: number;
  /** Items the announcer could not read (never published), and events the bus refused. */
  unreadable: Array<{ pk: string; sk?: string; reason: string }>;
  failed: Array<{ id: string; reason: string }>;
}

/**
 * Announces again, from the table, what the announcer announced of every item of a time
 * window — an award's reward.granted (and for a revoked award its reward.revoked after it),
 * whose guard says it was committed in the window, and an achievement's reward.achieved, whose
 * item says it was earned in it: the way back when the stream no longer holds a given-up batch
 * (24 hours). The items are the events' records, so each event carries the id it had the first
 * time: consumers that deduplicate on it see nothing new.
 */
export async function republishFromTable(options: RepublishOptions): Promise<RepublishReport> {
  const kind = options.kind ?? "all";
  const report: RepublishReport = {
    kind,
    found: 0,
    revoked: 0,
    achievements: 0,
    events: 0,
    published: 0,
    unreadable: [],
    failed: [],
  };
  for await (const page of announcingItems(options.dynamo, options.tableName, { ...options, kind })) {
    report.unreadable.push(...page.unreadable);
    const announcements: Announcement[] = [];
    for (const guard of page.guards) {
      const announced = guardAnnouncements(guard);
      if (!announced.ok) {
        report.unreadable.push({ pk: guard.pk, reason: announced.reason });
        continue;
      }
      if (announced.announcements.length > 0) report.found++;
      for (const announcement of announced.announcements) {
        if (announcement.type === "reward.revoked") report.revoked++;
        announcements.push(announcement);
      }
    }
    for (const item of page.achievements) announcements.push(rewardAchieved(item));
    report.achievements += page.achievements.length;
    report.events += announcements.length;
    if (!options.publish || announcements.length === 0) continue;
    const unpublished = await publishGrants(
      options.publish,
      announcements.map((announcement) => ({ key: announcement.id, grant: announcement })),
      NO_DEADLINE,
    );
    for (const [id, { reason }] of unpublished) report.failed.push({ id, reason });
    report.published += announcements.length - unpublished.size;
  }
  return report;
}
