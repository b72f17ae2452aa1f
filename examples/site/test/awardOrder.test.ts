import { describe, expect, it } from "vitest";
import { inReadingOrder } from "../src/awardOrder";
import { awardOf } from "./fixtures";

const at = (id: string, awardedAt: string, eventTime: string) =>
  awardOf({ id, awardedAt: `2026-12-04T${awardedAt}.000Z`, eventTime, earnedOn: eventTime.slice(0, 10) });

describe("inReadingOrder", () => {
  it("orders one commit's awards by event time, newest first, not by grant id", () => {
    // One backlog batch: the API lists it by grant id (descending), so the days come shuffled.
    const commit = "10:00:00";
    const api = [
      at("grant-e", commit, "2026-12-01T08:00:00.000Z"),
      at("grant-d", commit, "2026-12-03T08:00:00.000Z"),
      at("grant-c", commit, "2026-12-02T08:00:00.000Z"),
      at("grant-b", commit, "2026-11-30T08:00:00.000Z"),
      at("grant-a", commit, "2026-12-04T08:00:00.000Z"),
    ];
    expect(inReadingOrder(api).map(({ earnedOn }) => earnedOn)).toEqual([
      "2026-12-04",
      "2026-12-03",
      "2026-12-02",
      "2026-12-01",
      "2026-11-30",
    ]);
  });

  it("keeps the commits in the API's order, newest first, even when an older commit holds a later event", () => {
    const api = [
      at("grant-late", "12:00:00", "2026-12-01T08:00:00.000Z"), // a late event, committed last
      at("grant-2", "11:00:00", "2026-12-04T10:00:00.000Z"),
      at("grant-1", "11:00:00", "2026-12-04T10:30:00.000Z"),
      at("grant-0", "09:00:00", "2026-12-04T08:00:00.000Z"),
    ];
    expect(inReadingOrder(api).map(({ id }) => id)).toEqual(["grant-late", "grant-1", "grant-2", "grant-0"]);
  });

  it("is stable: the same commit and event time keep the API's order", () => {
    const same = "2026-12-04T08:00:00.000Z";
    const api = ["grant-z", "grant-m", "grant-q"].map((id) => at(id, "10:00:00", same));
    expect(inReadingOrder(api).map(({ id }) => id)).toEqual(["grant-z", "grant-m", "grant-q"]);
    expect(inReadingOrder(inReadingOrder(api))).toEqual(inReadingOrder(api));
  });

  it("leaves the API's list as it is and an empty page empty", () => {
    const api = [
      at("grant-1", "10:00:00", "2026-12-01T08:00:00.000Z"),
      at("grant-2", "10:00:00", "2026-12-02T08:00:00.000Z"),
    ];
    const copy = [...api];
    inReadingOrder(api);
    expect(api).toEqual(copy);
    expect(inReadingOrder([])).toEqual([]);
  });
});
