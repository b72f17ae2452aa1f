import { z } from "zod";

/**
 * ISO weeks (docs/board.md#the-week): a week starts Monday 00:00 UTC and belongs to the year of
 * its Thursday, written `2026-W49`. Pure.
 */
const DAY_MS = 86_400_000;
const WEEK_TEXT = /^(\d{4})-W(\d{2})$/;

/** Days since Monday (0–6) of a UTC instant. */
const weekdayOf = (ms: number): number => (new Date(ms).getUTCDay() + 6) % 7;

/** The ISO week of a UTC day (`YYYY-MM-DD`) or instant (epoch ms). */
export function isoWeekOf(day: string | number): string {
  const ms = typeof day === "number" ? Math.floor(day / DAY_MS) * DAY_MS : Date.parse(`${day}T00:00:00Z`);
  const thursday = ms + (3 - weekdayOf(ms)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${String(year).padStart(4, "0")}-W${String(week).padStart(2, "0")}`;
}

/** The Monday 00:00 UTC (epoch ms) a week starts at; the week must be valid (isIsoWeek). */
export function isoWeekStartMs(week: string): number {
  const [, year = "", number = ""] = WEEK_TEXT.exec(week) ?? [];
  // 4 January is always in week 1.
  const january4 = Date.UTC(Number(year), 0, 4);
  return january4 - weekdayOf(january4) * DAY_MS + (Number(number) - 1) * 7 * DAY_MS;
}

/** The first day (`YYYY-MM-DD`, a Monday) and the last (a Sunday) of a valid week. */
export function isoWeekDays(week: string): { first: string; last: string } {
  const start = isoWeekStartMs(week);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { first: day(start), last: day(start + 6 * DAY_MS) };
}

/** Whether `text` names a week that exists: `2026-W53` does, `2025-W53` does not. */
export function isIsoWeek(text: unknown): text is string {
  if (typeof text !== "string" || !WEEK_TEXT.test(text)) return false;
  const year = Number(text.slice(0, 4));
  if (year < 1970) return false;
  return isoWeekOf(isoWeekStartMs(text)) === text;
}

export const isoWeekSchema = z.string().refine(isIsoWeek, "an ISO week such as 2026-W49");

/** The week `weeks` weeks after (negative: before) `week`. */
export function isoWeekPlus(week: string, weeks: number): string {
  return isoWeekOf(isoWeekStartMs(week) + weeks * 7 * DAY_MS);
}
