/**
 * RFC 3339 date-time (section 5.6), which CloudEvents `time` uses. Its `T` and `Z` are
 * case-insensitive (section 5.6, note); fractional seconds of any length; a leap second
 * (`:60`) is valid; the calendar must hold the day (no 2026-02-30).
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isRfc3339DateTime(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHour = 0, offsetMinute = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  return (
    month !== undefined &&
    month >= 1 &&
    month <= 12 &&
    day !== undefined &&
    day >= 1 &&
    day <= daysIn(year as number, month) &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    (second as number) <= 60 &&
    offsetHour <= 23 &&
    offsetMinute <= 59
  );
}

/** The pattern alone, for JSON Schema consumers (the calendar check is the worker's). */
export const RFC3339_PATTERN = RFC3339.source;
