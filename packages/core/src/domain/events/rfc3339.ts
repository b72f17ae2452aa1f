import { z } from "zod";

/**
 * RFC 3339 date-time (section 5.6), which CloudEvents `time` uses. Its `T` and `Z` are
 * case-insensitive (section 5.6, note); fractional seconds of any length; a leap second
 * (`:60`) is valid; the calendar must hold the day (no 2026-02-30).
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isRfc3339DateTime(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  // Groups 1–6 always match; the fraction's (7) may not; the offset's (8–10) are absent for `Z`.
  const group = (index: number) => Number(match[index] ?? 0);
  const month = group(2);
  const day = group(3);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(group(1), month) &&
    group(4) <= 23 &&
    group(5) <= 59 &&
    group(6) <= 60 &&
    group(9) <= 23 &&
    group(10) <= 59
  );
}

/**
 * The instant (epoch ms) a valid RFC 3339 date-time names; its fraction is cut to whole
 * milliseconds and a leap second counts as the second before it. NaN for anything else.
 */
export function epochMsOfRfc3339(value: string): number {
  const match = RFC3339.exec(value);
  if (!match || !isRfc3339DateTime(value)) return Number.NaN;
  const group = (index: number) => Number(match[index] ?? 0);
  const fractionMs = Math.floor(Number(`0${match[7] ?? ""}`) * 1000);
  const offsetMinutes = (match[8] === "-" ? -1 : 1) * (group(9) * 60 + group(10));
  const utc = Date.UTC(group(1), group(2) - 1, group(3), group(4), group(5), Math.min(group(6), 59));
  return utc + fractionMs - offsetMinutes * 60_000;
}

/** The pattern alone, for JSON Schema consumers (the calendar check is the worker's). */
export const RFC3339_PATTERN = RFC3339.source;

/** A date-time field of a stored item or an announcement. */
export const rfc3339DateTime = z.string().refine(isRfc3339DateTime, "must be an RFC 3339 date-time");
