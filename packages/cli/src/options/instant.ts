import { epochMsOfRfc3339 } from "@rewards/core";
import { InvalidArgumentError } from "commander";

/**
 * An instant: RFC 3339 (`2026-12-01T09:00:00Z`) or a date (`2026-12-01`, midnight UTC). Apart
 * from ./parsers because it loads core: a top-level command imports it in its (async) options.
 */
export function instant(value: string): Date {
  const ms = epochMsOfRfc3339(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms))
    throw new InvalidArgumentError("expected an RFC 3339 date-time, e.g. 2026-12-01T09:00:00Z");
  return new Date(ms);
}
