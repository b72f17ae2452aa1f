import { describe, expect, it } from "vitest";
import { newReader, readProfileItem } from "../src/storedItems";
import { UnreadableItemError } from "../src/unreadableItemError";

const profile = { pk: "USER#u1", sk: "PROFILE", xp: 45, awards: 3, updatedAt: "2026-12-03T10:00:00.000Z" };
const none = { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 };

describe("readProfileItem: the counts per event type (docs/reading.md#counts)", () => {
  it("reads every type's count, 0 where the item has none", () => {
    expect(
      readProfileItem({ ...profile, "count:article.completed": 2, "count:article.shared": 1 }),
    ).toStrictEqual({
      xp: 45,
      awards: 3,
      counts: { ...none, "article.completed": 2, "article.shared": 1 },
      updatedAt: "2026-12-03T10:00:00.000Z",
    });
    expect(readProfileItem({ pk: "USER#u1", sk: "PROFILE", xp: 0, awards: 0 })).toStrictEqual({
      xp: 0,
      awards: 0,
      counts: none,
    });
    expect(
      readProfileItem({ ...profile, "count:streak.day": 7, "count:signup.completed": 1, "count:other": 9 })
        .counts,
    ).toStrictEqual({ ...none, "streak.day": 7, "signup.completed": 1 });
  });

  it("a count below 0 (an award paid before the counts, revoked) reads as 0", () => {
    expect(
      readProfileItem({ ...profile, "count:article.completed": -1, "count:streak.day": 0 }).counts,
    ).toEqual(none);
  });

  it("a count that is not a whole number makes the profile unreadable, naming it", () => {
    for (const [value, shown] of [
      ["two", '"two"'],
      [1.5, "1.5"],
    ] as const) {
      let error: unknown;
      try {
        readProfileItem({ ...profile, "count:article.shared": value });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(UnreadableItemError);
      expect(error).toMatchObject({ key: { pk: "USER#u1", sk: "PROFILE" } });
      expect((error as UnreadableItemError).problem).toMatch(
        new RegExp(`^count:article\\.shared: .* \\(${shown}\\)$`),
      );
    }
  });

  it("a user never awarded is a new reader: every count 0, a new object each time", () => {
    expect(newReader()).toStrictEqual({ xp: 0, awards: 0, counts: none });
    const first = newReader();
    first.counts["article.completed"] = 5;
    expect(newReader().counts).toEqual(none);
  });
});
