import { achievementKey } from "@rewards/core";
import { guardItem, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { HISTORY_FILTER_PATTERNS, isHistoryCandidate } from "../src";

const guard = guardItem("user1#a#article.completed");
const achievement = {
  ...achievementKey("user1", "first-article"),
  userId: "user1",
  achievement: "first-article",
  title: "First article",
  earnedAt: "2026-11-29T10:00:01.456Z",
};

describe("the history's mapping filter", () => {
  it("is the guard writes alone: the achievements the writer puts itself never come back to it", () => {
    expect(HISTORY_FILTER_PATTERNS).toEqual([
      { eventName: ["INSERT", "MODIFY"], dynamodb: { Keys: { sk: { S: ["IDEM"] } } } },
    ]);
    expect(isHistoryCandidate(streamRecord("INSERT", guard))).toBe(true);
    expect(isHistoryCandidate(streamRecord("MODIFY", guard))).toBe(true);
    expect(isHistoryCandidate(streamRecord("REMOVE", guard))).toBe(false);
    expect(isHistoryCandidate(streamRecord("INSERT", achievement))).toBe(false);
  });
});
