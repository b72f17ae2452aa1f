import { guardItem, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { AWARD_FILTER_PATTERN, isAwardCandidate, readStreamRecord } from "../src";

const guard = guardItem("user1#a#article.completed");
const profile = { pk: "USER#user1", sk: "PROFILE", userId: "user1", xp: 20, awards: 1 };

describe("the mapping's filter", () => {
  it("is the pattern the infrastructure deploys", () => {
    expect(AWARD_FILTER_PATTERN).toEqual({
      eventName: ["INSERT", "MODIFY"],
      dynamodb: { Keys: { sk: { S: ["IDEM"] } } },
    });
  });

  it.each([
    ["a new guard", streamRecord("INSERT", guard), true],
    ["a guard replacing an expired one", streamRecord("MODIFY", guard), true],
    ["a guard the TTL sweeper deleted", streamRecord("REMOVE", guard), false],
    ["a new profile", streamRecord("INSERT", profile), false],
    ["a profile update", streamRecord("MODIFY", profile), false],
  ])("lets through %s: %s", (_name, record, expected) => {
    expect(isAwardCandidate(record)).toBe(expected);
    // The function reads alike, filter or no filter.
    expect(readStreamRecord(record).kind === "award").toBe(expected);
  });
});

describe("readStreamRecord", () => {
  it("skips a record whose keys only look like a guard's", () => {
    expect(readStreamRecord(streamRecord("INSERT", { ...guard, pk: "USER#user1" })).kind).toBe("skip");
    expect(readStreamRecord(streamRecord("INSERT", { ...guard, sk: "PROFILE" })).kind).toBe("skip");
    expect(readStreamRecord({ eventName: "INSERT" }).kind).toBe("skip");
  });
});
