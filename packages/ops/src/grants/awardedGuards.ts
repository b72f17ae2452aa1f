import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Announcement, RewardGranted } from "@rewards/core";
import { type GuardWindow, guardPages } from "../guardPages";
import { guardAnnouncements } from "./guardAnnouncements";

export type AnnouncedPage = {
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
 * Every guard in `window` (guardPages: a scan of the whole table), page by page, as what its
 * award announced — the same events, ids included, as the announcer's: the
 * `reward.granted`, and for a revoked guard the `reward.revoked` too.
 */
export async function* awardedGuards(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  window: GuardWindow = {},
): AsyncGenerator<AnnouncedPage> {
  for await (const page of guardPages(dynamo, tableName, window)) {
    const result: AnnouncedPage = {
      announcements: [],
      awards: 0,
      grants: [],
      unreadable: [...page.unreadable],
    };
    for (const guard of page.guards) {
      const announced = guardAnnouncements(guard);
      if (!announced.ok) {
        result.unreadable.push({ pk: guard.pk, reason: announced.reason });
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
