import { AWARD_SK_PREFIX } from "./historyLayout";

/**
 * An event may be up to this far after the worker's clock (docs/events.md#event-time), so an award earned
 * today (its event's UTC date) may have been committed this long before today began.
 */
export const FUTURE_EVENT_MARGIN_MS = 5 * 60_000;

/** Today's UTC date and the first history sort key that can hold an award earned today. Pure. */
export function todayOf(now: Date): { day: string; fromSk: string } {
  const day = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${day}T00:00:00.000Z`) - FUTURE_EVENT_MARGIN_MS);
  return { day, fromSk: `${AWARD_SK_PREFIX}${from.toISOString()}` };
}

/** Today's date (YYYY-MM-DD) in `timeZone` (an IANA name checkedTimeZone accepted). Pure. */
export function zoneDayOf(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}
