import { marshall } from "@aws-sdk/util-dynamodb";
import { describe, expect, it } from "vitest";
import { readAchievementRecord } from "../src/aws";
import {
  achievementId,
  achievementItemSchema,
  achievementKey,
  grantId,
  rewardAchieved,
  rewardAchievedSchema,
} from "../src/domain";

const crossing = grantId("user123#a#article.completed", "2026-11-29T10:00:01.234Z");

/** An achievement item as the history's writer puts it. */
const item = {
  ...achievementKey("user123", "first-article"),
  userId: "user123",
  achievement: "first-article",
  title: "First article",
  earnedAt: "2026-11-29T10:00:01.456Z",
  grantId: crossing,
};

const issues = (value: unknown) =>
  achievementItemSchema
    .safeParse(value)
    .error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("achievementId", () => {
  it("hashes the user and the achievement separated by a newline (pinned, computed with Python: consumers store it)", () => {
    expect(achievementId("user123", "first-article")).toBe(
      "achieve-rgefJTKAHdb2dgChdIqrSVCjXI9uV5EFTQ5E5zbXUwM",
    );
    expect(achievementId("u", "level-2")).toBe("achieve-6eeGjQSTzMd2ieRRJyY08Nw8qNRVfHwVGAF1OfSuTs8");
    // Another user, another achievement; the separator keeps ("u1", "0") and ("u", "10") apart.
    expect(achievementId("user124", "first-article")).not.toBe(achievementId("user123", "first-article"));
    expect(achievementId("user123", "first-share")).not.toBe(achievementId("user123", "first-article"));
    expect(achievementId("u1", "0")).not.toBe(achievementId("u", "10"));
  });
});

describe("rewardAchieved", () => {
  it("is the CloudEvent of the achievement item: time its earnedAt, id from (userId, achievement) alone", () => {
    const event = rewardAchieved(achievementItemSchema.parse(item));
    expect(event).toEqual({
      specversion: "1.0",
      id: "achieve-rgefJTKAHdb2dgChdIqrSVCjXI9uV5EFTQ5E5zbXUwM",
      source: "/rewards",
      type: "reward.achieved",
      time: "2026-11-29T10:00:01.456Z",
      subject: "user123",
      datacontenttype: "application/json",
      data: {
        userId: "user123",
        achievement: "first-article",
        title: "First article",
        earnedAt: "2026-11-29T10:00:01.456Z",
        grantId: crossing,
      },
    });
    expect(rewardAchievedSchema.parse(event)).toEqual(event);
    // Another earnedAt (an item rewritten by a rebuild, say) is still the one achievement.
    expect(rewardAchieved({ ...item, earnedAt: "2026-12-01T00:00:00.000Z" }).id).toBe(event.id);
  });

  it("has no grantId without one, and the docs' title when the item has none", () => {
    const {
      grantId: _grant,
      title: _title,
      ...bare
    } = {
      ...item,
      ...achievementKey("user123", "level-3"),
      achievement: "level-3",
    };
    const event = rewardAchieved(achievementItemSchema.parse(bare));
    expect(event.data).toEqual({
      userId: "user123",
      achievement: "level-3",
      title: "Level 3",
      earnedAt: "2026-11-29T10:00:01.456Z",
    });
    expect(rewardAchievedSchema.parse(event)).toEqual(event);
  });
});

describe("achievementItemSchema", () => {
  it("reads the item the history's writer puts, its unknown attributes dropped", () => {
    expect(achievementItemSchema.parse({ ...item, extra: 1 })).toEqual(item);
  });

  it("refuses an unknown achievement, keys that are not its user's and achievement's, and bad fields", () => {
    const unknown = (id: string) => ({ ...item, ...achievementKey("user123", id), achievement: id });
    expect(issues(unknown("level-1"))).toEqual(["achievement: not an achievement id"]);
    expect(issues(unknown("Gold"))).toEqual(["achievement: not an achievement id"]);
    expect(issues({ ...item, ...achievementKey("user124", "first-article") })).toEqual([
      "sk: the keys are not the user's and achievement's",
    ]);
    expect(issues({ ...item, sk: achievementKey("user123", "first-share").sk })).toEqual([
      "sk: the keys are not the user's and achievement's",
    ]);
    expect(issues({ ...item, sk: "PROFILE" })).toEqual(["sk: the keys are not the user's and achievement's"]);
    expect(issues({ ...item, earnedAt: "yesterday" })).toEqual(["earnedAt: must be an RFC 3339 date-time"]);
    expect(issues({ ...item, grantId: "grant-x" })).toEqual([
      "grantId: Invalid string: must match pattern /^grant-[A-Za-z0-9_-]{43}$/",
    ]);
    expect(issues({ ...item, pk: achievementKey("", "first-article").pk, userId: "" })).toEqual([
      "userId: must be 1 to 256 characters",
    ]);
  });
});

describe("readAchievementRecord", () => {
  const record = (eventName: string, image: Record<string, unknown> | undefined) => ({
    eventName,
    dynamodb: {
      Keys: marshall({ pk: item.pk, sk: item.sk }) as Record<string, { S?: string }>,
      ...(image ? { NewImage: marshall(image) } : {}),
    },
  });

  it("reads an achievement item's INSERT", () => {
    expect(readAchievementRecord(record("INSERT", item))).toEqual({ kind: "achievement", item });
  });

  it("leaves any other record: its MODIFY or REMOVE, a guard, a profile, no keys", () => {
    expect(readAchievementRecord(record("MODIFY", item))).toEqual({ kind: "other" });
    expect(readAchievementRecord(record("REMOVE", undefined))).toEqual({ kind: "other" });
    const other = (pk: string, sk: string) => ({
      eventName: "INSERT",
      dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } }, NewImage: marshall(item) },
    });
    expect(readAchievementRecord(other("USER#user123", "PROFILE"))).toEqual({ kind: "other" });
    expect(readAchievementRecord(other("IDEM#user123#a#article.completed", "IDEM"))).toEqual({
      kind: "other",
    });
    expect(readAchievementRecord(other("IDEM#x", item.sk))).toEqual({ kind: "other" });
    expect(readAchievementRecord({ eventName: "INSERT" })).toEqual({ kind: "other" });
  });

  it("says why an INSERT it cannot read is unreadable", () => {
    expect(readAchievementRecord(record("INSERT", undefined))).toEqual({
      kind: "unreadable",
      reason: "an achievement's INSERT without its new image (the stream must show NEW_IMAGE)",
    });
    expect(readAchievementRecord(record("INSERT", { ...item, achievement: "Gold" }))).toEqual({
      kind: "unreadable",
      reason: expect.stringContaining("not an achievement id"),
    });
  });
});
