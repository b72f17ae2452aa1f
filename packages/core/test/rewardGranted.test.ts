import { describe, expect, it } from "vitest";
import { embeddedMetrics, remainingMsOf } from "../src/aws";
import {
  GUARD_PK_PREFIX,
  grantId,
  guardImageSchema,
  rewardGranted,
  rewardGrantedSchema,
} from "../src/domain";

const guard = {
  pk: "IDEM#user123#idempotent-writes#article.completed",
  sk: "IDEM" as const,
  userId: "user123",
  type: "article.completed" as const,
  amount: 20,
  eventId: "evt-01JDX3",
  awardedAt: "2026-11-29T10:00:01.234Z",
};

describe("grantId", () => {
  it("is the same for every copy of an award and differs between awards", () => {
    const id = grantId("user123#a#article.completed", "2026-11-29T10:00:01.234Z");
    expect(id).toBe(grantId("user123#a#article.completed", "2026-11-29T10:00:01.234Z"));
    expect(id).toMatch(/^grant-[A-Za-z0-9_-]{43}$/);
    // Another memory window of one intent, and another intent at one instant.
    expect(grantId("user123#a#article.completed", "2026-12-29T10:00:01.234Z")).not.toBe(id);
    expect(grantId("user123#b#article.completed", "2026-11-29T10:00:01.234Z")).not.toBe(id);
  });

  it("hashes the intent key and awardedAt separated by a newline (pinned, computed with Python: consumers store it)", () => {
    expect(grantId("k", "2026-11-29T10:00:01.234Z")).toBe(
      "grant-XwivocBk5PLOqkdHcEBzrAXLl9847P9AJ6cf5FLQ54g",
    );
    // The separator keeps ("k1", "2…") and ("k", "12…") apart.
    expect(grantId("k1", "2")).not.toBe(grantId("k", "12"));
  });
});

describe("rewardGranted", () => {
  it("is the CloudEvent of the award that wrote the guard", () => {
    const event = rewardGranted(guard);
    expect(event).toEqual({
      specversion: "1.0",
      id: grantId("user123#idempotent-writes#article.completed", guard.awardedAt),
      source: "/rewards",
      type: "reward.granted",
      time: "2026-11-29T10:00:01.234Z",
      subject: "user123",
      datacontenttype: "application/json",
      data: {
        userId: "user123",
        eventType: "article.completed",
        xp: 20,
        intentKey: "user123#idempotent-writes#article.completed",
        eventId: "evt-01JDX3",
        awardedAt: "2026-11-29T10:00:01.234Z",
      },
    });
    expect(rewardGrantedSchema.parse(event)).toEqual(event);
  });

  it("carries a hashed intent key as the guard stores it", () => {
    const hashed = `sha256:${"A".repeat(43)}`;
    const event = rewardGranted({ ...guard, pk: `${GUARD_PK_PREFIX}${hashed}` });
    expect(event.data.intentKey).toBe(hashed);
    expect(rewardGrantedSchema.safeParse(event).success).toBe(true);
  });
});

describe("rewardGrantedSchema", () => {
  it("says what is wrong with a time that is not RFC 3339", () => {
    const parsed = rewardGrantedSchema.safeParse({ ...rewardGranted(guard), time: "2026-11-29 10:00" });
    expect(parsed.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual([
      "time: must be an RFC 3339 date-time",
    ]);
  });
});

describe("guardImageSchema", () => {
  it("reads a guard and ignores what it does not need (expiresAt)", () => {
    expect(guardImageSchema.parse({ ...guard, expiresAt: 1_800_000_000 })).toEqual(guard);
  });

  it.each([
    ["a profile's key", { pk: "USER#user123" }, "pk"],
    ["another sort key", { sk: "PROFILE" }, "sk"],
    ["no user", { userId: "" }, "userId"],
    // Any type a version may define reads (its facts are on the guard); only a malformed name does not.
    ["a type that is no type name", { type: "Article Started" }, "type"],
    ["a fractional amount", { amount: 2.5 }, "amount"],
    // 0 is a capped guard (docs/events.md#the-daily-cap): readable, it announces nothing. Below 0 is not.
    ["a negative amount", { amount: -1 }, "amount"],
    ["no event id", { eventId: "" }, "eventId"],
    ["a date without time", { awardedAt: "2026-11-29" }, "awardedAt"],
  ])("refuses %s", (_name, change, field) => {
    const result = guardImageSchema.safeParse({ ...guard, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([field]);
  });
});

describe("embeddedMetrics", () => {
  it("is one EMF line naming the service and the stage, a count metric per outcome and the batch duration", () => {
    expect(
      JSON.parse(
        embeddedMetrics(
          { service: "rewards-announcer", stage: "prod" },
          { announced: 2, failed: 1 },
          12,
          1_000,
        ),
      ),
    ).toEqual({
      _aws: {
        Timestamp: 1_000,
        CloudWatchMetrics: [
          {
            Namespace: "Rewards",
            // One dimension set, both: a metric is found (and alarmed on) by its service in its stage.
            Dimensions: [["service", "stage"]],
            Metrics: [
              { Name: "announced", Unit: "Count" },
              { Name: "failed", Unit: "Count" },
              { Name: "batchDuration", Unit: "Milliseconds" },
            ],
          },
        ],
      },
      service: "rewards-announcer",
      stage: "prod",
      announced: 2,
      failed: 1,
      batchDuration: 12,
    });
  });

  it("names the read API's duration `latency`, and carries whichever stage it is given", () => {
    expect(
      JSON.parse(
        embeddedMetrics(
          { service: "rewards-read-api", stage: "pr-42" },
          { requests: 1, "4xx": 0, "5xx": 1 },
          7,
          2_000,
          "latency",
        ),
      ),
    ).toEqual({
      _aws: {
        Timestamp: 2_000,
        CloudWatchMetrics: [
          {
            Namespace: "Rewards",
            Dimensions: [["service", "stage"]],
            Metrics: [
              { Name: "requests", Unit: "Count" },
              { Name: "4xx", Unit: "Count" },
              { Name: "5xx", Unit: "Count" },
              { Name: "latency", Unit: "Milliseconds" },
            ],
          },
        ],
      },
      service: "rewards-read-api",
      stage: "pr-42",
      requests: 1,
      "4xx": 0,
      "5xx": 1,
      latency: 7,
    });
  });
});

describe("remainingMsOf", () => {
  it("is what the context says is left, or no end without a context clock", () => {
    expect(remainingMsOf({ getRemainingTimeInMillis: () => 1234 })).toBe(1234);
    expect(remainingMsOf({})).toBe(Number.POSITIVE_INFINITY);
    expect(remainingMsOf(undefined)).toBe(Number.POSITIVE_INFINITY);
  });
});
