import type { Announcement } from "@rewards/core";

/** One announcement in words, field by field: what `rewards grants tail` shows of it. */
export interface AnnouncementWords {
  /** Its `time`: when the award committed, was revoked, or the achievement was earned. */
  time: string;
  event: Announcement["type"];
  user: string;
  /**
   * What it was: an award's event type and XP (`article.completed +20 XP`; `+10 XP (of 20)` when
   * the daily cap cut it), a revocation's (`article.completed -20 XP`), an achievement's id and
   * title (`first-article (First article)`).
   */
  what: string;
  id: string;
}

/** Pure: an announcement in words (`--json` prints the event as received instead). */
export function announcementWords({ id, type, time, data }: Announcement): AnnouncementWords {
  const what =
    type === "reward.achieved"
      ? `${data.achievement} (${data.title})`
      : type === "reward.revoked"
        ? `${data.eventType} -${data.xp} XP`
        : `${data.eventType} +${data.xp} XP${data.requestedXp === undefined ? "" : ` (of ${data.requestedXp})`}`;
  return { time, event: type, user: data.userId, what, id };
}
