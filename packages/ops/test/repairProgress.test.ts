import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { achievementKey, dayNumberOf, profileKey, progressKey } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { repairProgress } from "../src/progress/repairProgress";

type Item = Record<string, unknown>;
type Input = Record<string, unknown> & {
  Key?: Item;
  ExpressionAttributeValues?: Record<string, unknown>;
};

const day = (n: number) => `2026-12-0${n}`;
const grant = (n: number) => `grant-${String(n).repeat(43)}`;
const history = (n: number, type: string, data: Item, xp: number, revokedAt?: string): Item => ({
  pk: "USER#u1",
  sk: `AWARD#2026-12-0${n}T10:00:00.000Z#${grant(n)}`,
  id: grant(n),
  type,
  data,
  xp,
  eventId: `e${n}`,
  eventTime: `2026-12-0${n}T10:00:00.000Z`,
  earnedOn: `2026-12-0${n}`,
  awardedAt: `2026-12-0${n}T10:00:00.000Z`,
  intentKey: `u1#${n}#${type}`,
  ...(revokedAt ? { revokedAt } : {}),
});

/**
 * u1's items, paid before counts existed (no counts on the profile): streak days 1 and 2, day 3
 * revoked but still kept, day 1 not kept (its record never reached the writer), one article.
 * Reads answered from them; writes recorded in `writes`, in order, and not applied.
 */
function fakeTable(profile: { awards: number; xp: number } = { awards: 3, xp: 130 }) {
  const items: Item[] = [
    { ...profileKey("u1"), userId: "u1", ...profile },
    { ...progressKey("u1"), days: new Set([dayNumberOf(day(2)), dayNumberOf(day(3))]) },
    history(1, "streak.day", { day: day(1) }, 10),
    history(2, "streak.day", { day: day(2) }, 10),
    history(3, "streak.day", { day: day(3) }, 10, "2026-12-04T00:00:00.000Z"),
    history(4, "article.completed", { articleSlug: "a" }, 110),
  ];
  const writes: Array<{ command: string; input: Input }> = [];
  const dynamo = {
    async send(command: { constructor: { name: string }; input: Input }) {
      const { input } = command;
      switch (command.constructor.name) {
        case "GetCommand":
          return {
            Item: items.find((item) => item.pk === input.Key?.pk && item.sk === input.Key?.sk),
          };
        case "BatchGetCommand": {
          const keys = (input.RequestItems as Record<string, { Keys: Item[] }>).rewards?.Keys ?? [];
          return {
            Responses: {
              rewards: items.filter((item) => keys.some((key) => key.pk === item.pk && key.sk === item.sk)),
            },
          };
        }
        case "QueryCommand": {
          const { ":pk": pk, ":prefix": prefix } = input.ExpressionAttributeValues as Record<string, string>;
          return {
            Items: items.filter((item) => item.pk === pk && String(item.sk).startsWith(String(prefix))),
          };
        }
        default:
          writes.push({ command: command.constructor.name, input });
          return {};
      }
    },
  } as unknown as DynamoDBDocumentClient;
  return { dynamo, writes };
}

const options = { tableName: "rewards", userId: "u1", counts: true };
const earned = [
  { achievement: "first-article", earnedAt: "2026-12-04T10:00:00.000Z", grantId: grant(4) },
  { achievement: "level-2", earnedAt: "2026-12-04T10:00:00.000Z", grantId: grant(4) },
];

describe("repairProgress", () => {
  it("a dry run reports the repair and writes nothing", async () => {
    const { dynamo, writes } = fakeTable();
    expect(await repairProgress(dynamo, { ...options, dryRun: true })).toEqual({
      dryRun: true,
      interrupted: false,
      counts: true,
      readers: [
        {
          userId: "u1",
          daysKept: 1,
          daysUnkept: 1,
          achieved: ["first-article", "level-2"],
          earned,
          counts: "set",
        },
      ],
      totals: { readers: 1, daysKept: 1, daysUnkept: 1, achieved: 2, countsSet: 1, waiting: 0, failed: 0 },
    });
    expect(writes).toEqual([]);
  });

  it("adds the missing day, removes the revoked one, sets the counts on what it read, and puts and lists the achievements", async () => {
    const { dynamo, writes } = fakeTable();
    const report = await repairProgress(dynamo, { ...options, dryRun: false });
    expect(report.readers).toEqual([
      {
        userId: "u1",
        daysKept: 1,
        daysUnkept: 1,
        achieved: ["first-article", "level-2"],
        earned,
        counts: "set",
      },
    ]);
    const days = (action: string, n: number) => ({
      command: "UpdateCommand",
      input: {
        TableName: "rewards",
        Key: progressKey("u1"),
        UpdateExpression: `${action} #days :days`,
        ExpressionAttributeNames: { "#days": "days" },
        ExpressionAttributeValues: { ":days": new Set([dayNumberOf(day(n))]) },
      },
    });
    const put = (achievement: string, title: string) => ({
      command: "PutCommand",
      input: {
        TableName: "rewards",
        Item: {
          ...achievementKey("u1", achievement),
          userId: "u1",
          achievement,
          title,
          earnedAt: "2026-12-04T10:00:00.000Z",
          grantId: grant(4),
        },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    });
    expect(writes).toEqual([
      days("ADD", 1),
      days("DELETE", 3),
      {
        command: "UpdateCommand",
        input: {
          TableName: "rewards",
          Key: profileKey("u1"),
          UpdateExpression: "SET #c0 = :c0, #c1 = :c1, #c2 = :c2, #c3 = :c3",
          // Nothing paid or revoked since the read: awards as read, and every count as read (absent).
          ConditionExpression:
            "awards = :awards AND attribute_not_exists(#c0) AND attribute_not_exists(#c1) AND attribute_not_exists(#c2) AND attribute_not_exists(#c3)",
          ExpressionAttributeNames: {
            "#c0": "count:article.completed",
            "#c1": "count:article.shared",
            "#c2": "count:streak.day",
            "#c3": "count:signup.completed",
          },
          ExpressionAttributeValues: { ":awards": 3, ":c0": 1, ":c1": 0, ":c2": 2, ":c3": 0 },
        },
      },
      put("first-article", "First article"),
      put("level-2", "Level 2"),
      {
        command: "UpdateCommand",
        input: {
          TableName: "rewards",
          Key: progressKey("u1"),
          UpdateExpression: "ADD achievements :earned",
          ExpressionAttributeValues: { ":earned": new Set(["first-article", "level-2"]) },
        },
      },
    ]);
  });

  it("decides no achievement while the history lacks an award the profile holds, and says why", async () => {
    const { dynamo, writes } = fakeTable({ awards: 4, xp: 150 });
    const report = await repairProgress(dynamo, { ...options, counts: false, dryRun: false });
    expect(report.readers[0]).toMatchObject({
      achieved: [],
      earned: [],
      waiting: "the history holds 3 standing awards and 130 XP, the profile 4 and 150",
    });
    expect(report.totals.waiting).toBe(1);
    expect(writes.filter((write) => write.command === "PutCommand")).toEqual([]);
  });
});
