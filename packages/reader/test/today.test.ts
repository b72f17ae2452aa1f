import { describe, expect, it } from "vitest";
import { InvalidReadInput } from "../src/invalidReadInput";
import { checkedTimeZone } from "../src/readInput";
import { zoneDayOf } from "../src/today";

/** What `read` throws, or undefined when it does not. */
function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("the streak's today, in the reader's zone", () => {
  it("is the date in the zone asked for, not UTC's or the machine's", () => {
    const newYearsEve = new Date("2026-12-31T23:30:00.000Z");
    expect(zoneDayOf(newYearsEve, "UTC")).toBe("2026-12-31");
    expect(zoneDayOf(newYearsEve, "Europe/Paris")).toBe("2027-01-01");
    expect(zoneDayOf(new Date("2027-01-01T05:00:00.000Z"), "America/Los_Angeles")).toBe("2026-12-31");
    // The tests run in far zones (Kiritimati, UTC+14; UTC−12): UTC's date is not the machine's.
    expect(zoneDayOf(new Date("2026-03-01T10:30:00.000Z"), "UTC")).toBe("2026-03-01");
    expect(zoneDayOf(new Date("2026-03-01T10:30:00.000Z"), "Pacific/Kiritimati")).toBe("2026-03-02");
  });

  it("takes an IANA zone the runtime knows, in its canonical spelling; UTC when none is given", () => {
    expect(checkedTimeZone(undefined)).toBe("UTC");
    expect(checkedTimeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(checkedTimeZone("europe/paris")).toBe("Europe/Paris");
  });

  it("refuses anything else as InvalidReadInput naming timeZone, never Intl's RangeError", () => {
    for (const [zone, shown] of [
      ["Mars/Olympus", '"Mars/Olympus"'],
      ["", '""'],
      [42, "42"],
      [null, "null"],
    ] as const) {
      const error = thrown(() => checkedTimeZone(zone));
      expect(error).toBeInstanceOf(InvalidReadInput);
      expect(error).toMatchObject({
        parameter: "timeZone",
        message: `timeZone: an IANA time zone such as "Europe/Paris" or "UTC", not ${shown}`,
      });
    }
  });
});
