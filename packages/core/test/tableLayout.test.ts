import { describe, expect, it } from "vitest";
import { plural } from "../src/domain/events/text";
import {
  countAttribute,
  countsOfProfile,
  DAY_SK_PREFIX,
  dayOfKey,
  dayTotalKey,
  guardKey,
  historyItemKey,
  intentKeyOfGuard,
  profileKey,
  userOfKey,
} from "../src/domain/table/tableLayout";

describe("the table's keys, built and read back", () => {
  it("builds each kind of item's key", () => {
    expect(profileKey("u1")).toEqual({ pk: "USER#u1", sk: "PROFILE" });
    expect(dayTotalKey("u1", "2026-12-03")).toEqual({ pk: "USER#u1", sk: "DAY#2026-12-03" });
    expect(guardKey("u1#a#article.completed")).toEqual({ pk: "IDEM#u1#a#article.completed", sk: "IDEM" });
    expect(historyItemKey("u1", "2026-12-03T10:00:00.000Z", "g")).toEqual({
      pk: "USER#u1",
      sk: "AWARD#2026-12-03T10:00:00.000Z#g",
    });
    expect(DAY_SK_PREFIX).toBe("DAY#");
  });

  it("reads the user, the day and the intent back from keys, and nothing from a key of another kind", () => {
    expect(userOfKey("USER#u#1")).toBe("u#1");
    expect(userOfKey("IDEM#u1#a#article.completed")).toBeUndefined();
    expect(userOfKey(42)).toBeUndefined();
    expect(dayOfKey("DAY#2026-12-03")).toBe("2026-12-03");
    expect(dayOfKey("PROFILE")).toBeUndefined();
    expect(intentKeyOfGuard("IDEM#u1#a#article.completed")).toBe("u1#a#article.completed");
  });

  it("says a count in words", () => {
    expect(plural(1, "user")).toBe("1 user");
    expect(plural(0, "user")).toBe("0 users");
    expect(plural(2, "mismatch", "mismatches")).toBe("2 mismatches");
  });
});

describe("a profile's counts (docs/reading.md#counts)", () => {
  it("every count:<type> attribute of an event type name, a site's own types too; nothing else", () => {
    expect(
      countsOfProfile({
        pk: "USER#u",
        sk: "PROFILE",
        xp: 55,
        awards: 3,
        [countAttribute("article.completed")]: 2,
        [countAttribute("podcast.listened")]: 1,
        "count:": 4,
        "count:Article Liked": 5,
        "count:quiz.passed": "3",
      }),
    ).toEqual({ "article.completed": 2, "podcast.listened": 1 });
  });
});
