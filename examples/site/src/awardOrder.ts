import type { HistoryAward } from "@rewards/reader";

/**
 * The awards in the order the reader did them, newest first. The API lists the history by
 * commit (`awardedAt`, newest first) and, within one commit, by grant id — a hash, so the awards
 * of one visit or one backlog batch come out shuffled (12-01, 12-03, 12-02, 11-30, 12-04). Here
 * the commits keep the API's order and, within one, the event's time decides (newest first);
 * awards with the same commit and event time keep the API's order (the sort is stable).
 */
export function inReadingOrder<T extends Pick<HistoryAward, "awardedAt" | "eventTime">>(
  awards: readonly T[],
): T[] {
  return awards
    .map((award, index) => ({ award, index }))
    .sort(
      (a, b) =>
        Date.parse(b.award.awardedAt) - Date.parse(a.award.awardedAt) ||
        Date.parse(b.award.eventTime) - Date.parse(a.award.eventTime) ||
        a.index - b.index,
    )
    .map(({ award }) => award);
}
