import { describe, expect, it } from "vitest";
import { canonicalZone, dayIn } from "../src/zoneDays";

describe("dayIn", () => {
  it("is the calendar day in the zone, not the machine's", () => {
    const instant = "2026-12-04T23:30:00.000Z";
    expect(dayIn(instant, "UTC")).toBe("2026-12-04");
    expect(dayIn(instant, "Europe/Paris")).toBe("2026-12-05");
    expect(dayIn(instant, "America/New_York")).toBe("2026-12-04");
    expect(dayIn(new Date("2026-12-04T10:00:00.000Z"), "Pacific/Kiritimati")).toBe("2026-12-05");
    expect(dayIn(Date.parse("2026-12-04T11:00:00.000Z"), "Etc/GMT+12")).toBe("2026-12-03");
  });
});

describe("canonicalZone", () => {
  it("names a zone as IANA does, forgiving its case, and knows none it does not", () => {
    expect(canonicalZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalZone("UTC")).toBe("UTC");
    expect(canonicalZone("Mars/Olympus")).toBeUndefined();
    expect(canonicalZone("")).toBeUndefined();
  });
});
