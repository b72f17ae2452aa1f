import { freshModule } from "@rewards/testing";
import { beforeEach, describe, expect, it } from "vitest";
import type * as Rfc3339 from "../src/domain/events/rfc3339";

// Loaded afresh in each test (@rewards/testing freshModule): its pattern is module-level constants.
let isRfc3339DateTime: typeof Rfc3339.isRfc3339DateTime;
beforeEach(async () => {
  ({ isRfc3339DateTime } = await freshModule(() => import("../src/domain/events/rfc3339")));
});

describe("isRfc3339DateTime", () => {
  it.each([
    "2026-01-01T00:00:00Z",
    "2026-12-31T23:59:59Z",
    "2026-11-29t10:00:00z",
    "2026-11-29T23:59:60Z",
    "2024-02-29T12:00:00.5+23:59",
    "2026-11-29T10:00:00-00:00",
  ])("accepts %s", (value) => {
    expect(isRfc3339DateTime(value)).toBe(true);
  });

  it.each([
    ["not a time at all", "yesterday"],
    ["month 0", "2026-00-10T10:00:00Z"],
    ["month 13", "2026-13-10T10:00:00Z"],
    ["day 0", "2026-11-00T10:00:00Z"],
    ["day 31 of a 30-day month", "2026-11-31T10:00:00Z"],
    ["February 29 of a common year", "2026-02-29T10:00:00Z"],
    ["hour 24", "2026-11-29T24:00:00Z"],
    ["minute 60", "2026-11-29T10:60:00Z"],
    ["second 61", "2026-11-29T10:00:61Z"],
    ["offset hour 24", "2026-11-29T10:00:00+24:00"],
    ["offset minute 60", "2026-11-29T10:00:00+05:60"],
  ])("refuses %s (%s)", (_label, value) => {
    expect(isRfc3339DateTime(value)).toBe(false);
  });
});
