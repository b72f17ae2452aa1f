import { describe, expect, it } from "vitest";

/**
 * `npm test` runs the unit tests in two zones far from UTC (vitest.config.ts). This pins
 * that the zone really reaches the test process: were TZ ignored, every other time test
 * would pass in the machine's zone and prove nothing about the far ones.
 */
describe("the test process's time zone", () => {
  it("is one of the far zones, as the project that runs it says", () => {
    const offsetHours = -new Date("2026-12-01T00:00:00Z").getTimezoneOffset() / 60;
    const expected: Record<string, number> = { "Pacific/Kiritimati": 14, "Etc/GMT+12": -12 };
    const zone = process.env.TZ;
    // Run outside the projects (a single file by hand), the zone is the machine's: nothing to pin.
    if (zone === undefined || !(zone in expected)) return;
    expect(offsetHours).toBe(expected[zone]);
  });
});
