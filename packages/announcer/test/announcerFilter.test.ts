import { achievementKey } from "@rewards/core";
import { guardItem, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { ANNOUNCER_FILTER_PATTERNS, isAnnouncerCandidate, readStreamRecord } from "../src";

const guard = guardItem("user1#a#article.completed");
const profile = { pk: "USER#user1", sk: "PROFILE", userId: "user1", xp: 20, awards: 1 };
const achievement = {
  ...achievementKey("user1", "first-article"),
  userId: "user1",
  achievement: "first-article",
  title: "First article",
  earnedAt: "2026-11-29T10:00:01.456Z",
};
const historyItem = { pk: "USER#user1", sk: "AWARD#2026-11-29T10:00:01.234Z#grant-x", userId: "user1" };

describe("the mapping's filters", () => {
  it("are the patterns the infrastructure deploys: guard writes, and achievements' INSERTs", () => {
    expect(ANNOUNCER_FILTER_PATTERNS).toEqual([
      { eventName: ["INSERT", "MODIFY"], dynamodb: { Keys: { sk: { S: ["IDEM"] } } } },
      { eventName: ["INSERT"], dynamodb: { Keys: { sk: { S: [{ prefix: "ACHIEVEMENT#" }] } } } },
    ]);
  });

  it.each([
    ["a new guard", streamRecord("INSERT", guard), true],
    ["a guard replacing an expired one", streamRecord("MODIFY", guard), true],
    ["a guard the TTL sweeper deleted", streamRecord("REMOVE", guard), false],
    ["a new profile", streamRecord("INSERT", profile), false],
    ["a profile update", streamRecord("MODIFY", profile), false],
    ["an achievement earned", streamRecord("INSERT", achievement), true],
    ["an achievement item changed (no writer does)", streamRecord("MODIFY", achievement), false],
    ["an achievement item deleted (no writer does)", streamRecord("REMOVE", achievement), false],
    ["a history item", streamRecord("INSERT", historyItem), false],
  ])("lets through %s: %s", (_name, record, expected) => {
    expect(isAnnouncerCandidate(record)).toBe(expected);
    // The function reads alike, filter or no filter.
    expect(readStreamRecord(record).kind === "announce").toBe(expected);
  });
});

describe("readStreamRecord", () => {
  it("skips a record whose keys only look like a guard's", () => {
    expect(readStreamRecord(streamRecord("INSERT", { ...guard, pk: "USER#user1" })).kind).toBe("skip");
    expect(readStreamRecord(streamRecord("INSERT", { ...guard, sk: "PROFILE" })).kind).toBe("skip");
    expect(readStreamRecord({ eventName: "INSERT" }).kind).toBe("skip");
  });

  it("skips a record whose keys only look like an achievement's", () => {
    expect(
      readStreamRecord(streamRecord("INSERT", { ...achievement, pk: "IDEM#user1#a#article.completed" })).kind,
    ).toBe("skip");
    expect(readStreamRecord(streamRecord("INSERT", { ...achievement, sk: "ACHIEVEMENT" })).kind).toBe("skip");
  });
});
