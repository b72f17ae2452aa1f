import { describe, expect, it } from "vitest";
import { awardsProblem, profileRepairAdvice, wrongAwardsCount } from "../src/user/profileRepairAdvice";

// What `rewards user` adds to the reader's refusal of a profile, and what `--set-xp` refuses
// to guess: a count (of awards, or of one event type's awards) that is there but wrong.
describe("profileRepairAdvice", () => {
  it("a wrong xp alone: --set-xp mends it", () => {
    expect(profileRepairAdvice("u1", { xp: "lots", awards: 2, "count:article.completed": 2 })).toBe(
      "; repair it with `rewards user u1 --set-xp <n> --yes`",
    );
    expect(wrongAwardsCount({ xp: 1 })).toBeUndefined();
    expect(wrongAwardsCount({ xp: 1, awards: 0, "count:streak.day": -1 })).toBeUndefined();
  });

  it("a wrong awards, or a count per type that is not a whole number: set by hand, named", () => {
    expect(profileRepairAdvice("u1", { xp: 1, awards: "three" })).toBe(
      '; the profile of user "u1" (USER#u1) has awards "three", not a count of awards, which no rewards command can know: set it by hand (docs/operations.md#repairing-a-profile)',
    );
    expect(profileRepairAdvice("u1", { xp: 1, awards: 3, "count:article.shared": "two" })).toBe(
      '; the profile of user "u1" (USER#u1) has count:article.shared "two", not a count of awards, which no rewards command can know: set it by hand (docs/operations.md#repairing-a-profile)',
    );
    expect(wrongAwardsCount({ awards: -1, "count:streak.day": "x" })).toEqual({
      attribute: "awards",
      found: -1,
    });
    expect(wrongAwardsCount({ awards: 1, "count:signup.completed": 1.5 })).toEqual({
      attribute: "count:signup.completed",
      found: 1.5,
    });
    // An attribute of no event type is none of the reader's business.
    expect(wrongAwardsCount({ awards: 1, "count:other": "x" })).toBeUndefined();
    expect(awardsProblem("u 2", "x")).toBe(
      'the profile of user "u 2" (USER#u 2) has awards "x", not a count of awards',
    );
  });
});
