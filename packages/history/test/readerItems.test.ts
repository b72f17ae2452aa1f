import { describe, expect, it } from "vitest";
import { unreadableReader } from "../src/function/readerItems";

const profile = { pk: "USER#u", sk: "PROFILE", xp: 80, awards: 4, "count:article.completed": 4 };
const progress = {
  pk: "USER#u",
  sk: "PROGRESS",
  days: new Set([20_000]),
  achievements: new Set(["first-article"]),
};

describe("unreadableReader: a reader the history's writer cannot derive", () => {
  it("reads a paid reader, and a reader with neither item yet", () => {
    expect(unreadableReader(profile, progress)).toBeUndefined();
    expect(unreadableReader(undefined, undefined)).toBeUndefined();
    expect(unreadableReader({ ...profile, revoked: 1 }, { pk: "USER#u", sk: "PROGRESS" })).toBeUndefined();
  });

  it("names the item, the attribute and what it holds", () => {
    expect(unreadableReader({ ...profile, xp: "eighty" }, progress)).toBe(
      'the profile USER#u is unreadable: xp is "eighty" (Invalid input: expected number, received string)',
    );
    expect(unreadableReader({ ...profile, awards: -1 }, progress)).toBe(
      "the profile USER#u is unreadable: awards is -1 (Too small: expected number to be >=0)",
    );
    expect(unreadableReader({ ...profile, awards: undefined }, progress)).toBe(
      "the profile USER#u is unreadable: awards is absent (Invalid input: expected number, received undefined)",
    );
    expect(unreadableReader({ ...profile, "count:streak.day": 1.5 }, progress)).toBe(
      "the profile USER#u is unreadable: count:streak.day is 1.5 (Invalid input: expected int, received number)",
    );
    expect(unreadableReader(profile, { ...progress, days: new Set(["2026-12-04"]) })).toBe(
      'the progress item USER#u is unreadable: days is ["2026-12-04"] (Invalid input: expected number, received string)',
    );
    expect(unreadableReader(profile, { ...progress, achievements: "level-2" })).toBe(
      'the progress item USER#u is unreadable: achievements is "level-2" (Invalid input: expected set, received string)',
    );
  });
});
