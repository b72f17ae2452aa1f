/**
 * Calendar days in a time zone, for what the page says about "today". The read API reads a
 * streak against today in the zone it is given (docs/reading.md#streaks); the page names that
 * zone wherever it says "today", and reads its own today in the same zone.
 */

/** The zone's canonical IANA name (`europe/paris` → `Europe/Paris`), or undefined when this runtime does not know it. */
export function canonicalZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayIn(instant: Date | number | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year").padStart(4, "0")}-${part("month")}-${part("day")}`;
}
