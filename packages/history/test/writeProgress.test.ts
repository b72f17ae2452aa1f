import { Writable } from "node:stream";
import { achievementKey, countAttribute, dayNumberOf, profileKey, progressKey } from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import type { HistoryDeps } from "../src/function/historyDeps";
import type { UserProgress } from "../src/function/progressPlan";
import { writeProgress } from "../src/function/writeProgress";

type Item = Record<string, unknown>;
type Input = Record<string, unknown> & {
  Key?: Item;
  Item?: Item;
  UpdateExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
  ConditionExpression?: string;
  RequestItems?: Record<string, { Keys: Item[] }>;
};

const conditionFailed = () =>
  Object.assign(new Error("The conditional request failed"), { name: "ConditionalCheckFailedException" });
const keyOf = (item: Item) => `${item.pk}\u0000${item.sk}`;

/**
 * A table holding `items`, faked as far as the progress writes need: `ADD`/`DELETE` on a set,
 * a put on `attribute_not_exists(pk)`, and BatchGetItem, which leaves unprocessed every key
 * `unprocessed(key, call)` names (call counts from 1). Every call, in order, in `calls`.
 */
function fakeTable(items: Item[], unprocessed: (key: Item, call: number) => boolean = () => false) {
  const table = new Map(items.map((item) => [keyOf(item), structuredClone(item)]));
  const calls: Array<{ command: string; input: Input }> = [];
  let reads = 0;
  const dynamo = {
    async send(command: { constructor: { name: string }; input: Input }) {
      const input = structuredClone(command.input);
      calls.push({ command: command.constructor.name, input });
      if (command.constructor.name === "BatchGetCommand") {
        reads++;
        const keys = input.RequestItems?.rewards?.Keys ?? [];
        const left = keys.filter((key) => unprocessed(key, reads));
        const found = keys.filter((key) => !left.includes(key)).flatMap((key) => table.get(keyOf(key)) ?? []);
        return {
          Responses: { rewards: structuredClone(found) },
          ...(left.length > 0 ? { UnprocessedKeys: { rewards: { Keys: left } } } : {}),
        };
      }
      if (command.constructor.name === "PutCommand") {
        const item = input.Item as Item;
        if (input.ConditionExpression === "attribute_not_exists(pk)" && table.has(keyOf(item)))
          throw conditionFailed();
        table.set(keyOf(item), item);
        return {};
      }
      if (command.constructor.name === "UpdateCommand") {
        const key = input.Key as Item;
        const item = table.get(keyOf(key)) ?? { ...key };
        const [action, name] = String(input.UpdateExpression).split(" ");
        const attribute = name === "#days" ? "days" : String(name);
        const value = Object.values(input.ExpressionAttributeValues ?? {})[0] as Set<unknown>;
        const set = new Set((item[attribute] as Set<unknown> | undefined) ?? []);
        for (const member of value) action === "ADD" ? set.add(member) : set.delete(member);
        item[attribute] = set;
        table.set(keyOf(key), item);
        return { Attributes: structuredClone(item) };
      }
      throw new Error(`unexpected ${command.constructor.name}`);
    },
  };
  return { table, calls, dynamo };
}

function deps(dynamo: HistoryDeps["dynamo"]): HistoryDeps {
  const destination = new Writable({ write: (_chunk, _encoding, done) => done() });
  return {
    tableName: "rewards",
    historyDays: 400,
    dynamo,
    logger: createLogger({ destination, level: "silent", name: "rewards-history" }),
    clock: () => Date.parse("2026-12-31T00:00:00.000Z"),
  };
}

const day = (n: number) => dayNumberOf(`2026-12-${String(n).padStart(2, "0")}`);
const profile = (userId: string, xp: number, counts: Record<string, number>) => ({
  ...profileKey(userId),
  userId,
  xp,
  awards: Object.values(counts).reduce((sum, n) => sum + n, 0),
  ...Object.fromEntries(Object.entries(counts).map(([type, n]) => [countAttribute(type), n])),
});
const earned = (userId: string, achievement: string) => ({
  ...achievementKey(userId, achievement),
  userId,
  achievement,
  earnedAt: "2026-11-01T00:00:00.000Z",
});

describe("writeProgress", () => {
  it("adds and removes kept days, then puts each achievement the stored state earns and the progress item does not list, once, conditionally, credited to the award that crossed it, and lists them", async () => {
    const { calls, dynamo, table } = fakeTable([
      profile("u1", 175, { "streak.day": 7, "signup.completed": 1, "article.shared": 1 }),
      // Days 1–6 and 9 kept; first-share listed (and its item put) long ago.
      {
        ...progressKey("u1"),
        days: new Set([1, 2, 3, 4, 5, 6, 9].map(day)),
        achievements: new Set(["first-share"]),
      },
      earned("u1", "first-share"),
    ]);
    const plan: UserProgress = {
      userId: "u1",
      keep: [day(7)],
      unkeep: [day(9)],
      awards: [
        { type: "streak.day", grantId: "grant-streak", awardedAt: "2026-12-07T10:00:00.000Z" },
        { type: "signup.completed", grantId: "grant-signup", awardedAt: "2026-12-07T11:00:00.000Z" },
      ],
    };
    const written = await writeProgress(deps(dynamo), [plan], pLimit(4));
    expect(written).toEqual({ achieved: 2, failed: new Map() });
    expect(calls).toEqual([
      {
        command: "UpdateCommand",
        input: {
          TableName: "rewards",
          Key: progressKey("u1"),
          UpdateExpression: "ADD #days :days",
          ExpressionAttributeNames: { "#days": "days" },
          ExpressionAttributeValues: { ":days": new Set([day(7)]) },
          ReturnValues: "ALL_NEW",
        },
      },
      {
        command: "UpdateCommand",
        input: {
          TableName: "rewards",
          Key: progressKey("u1"),
          UpdateExpression: "DELETE #days :days",
          ExpressionAttributeNames: { "#days": "days" },
          ExpressionAttributeValues: { ":days": new Set([day(9)]) },
          ReturnValues: "ALL_NEW",
        },
      },
      {
        command: "BatchGetCommand",
        input: {
          RequestItems: { rewards: { Keys: [profileKey("u1"), progressKey("u1")], ConsistentRead: true } },
        },
      },
      {
        command: "PutCommand",
        input: {
          TableName: "rewards",
          Item: {
            ...achievementKey("u1", "streak-7"),
            userId: "u1",
            achievement: "streak-7",
            title: "A week in a row",
            earnedAt: "2026-12-07T10:00:00.000Z",
            grantId: "grant-streak",
          },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        command: "PutCommand",
        input: {
          TableName: "rewards",
          Item: {
            ...achievementKey("u1", "level-2"),
            userId: "u1",
            achievement: "level-2",
            title: "Level 2",
            earnedAt: "2026-12-07T11:00:00.000Z",
            grantId: "grant-signup",
          },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        command: "UpdateCommand",
        input: {
          TableName: "rewards",
          Key: progressKey("u1"),
          UpdateExpression: "ADD achievements :earned",
          ExpressionAttributeValues: { ":earned": new Set(["streak-7", "level-2"]) },
        },
      },
    ]);
    expect(table.get(keyOf(progressKey("u1")))).toEqual({
      ...progressKey("u1"),
      days: new Set([1, 2, 3, 4, 5, 6, 7].map(day)),
      achievements: new Set(["first-share", "streak-7", "level-2"]),
    });

    // The same batch again (a retry, a replay): the days are as they were, nothing is due.
    calls.length = 0;
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({ achieved: 0, failed: new Map() });
    expect(calls.map((call) => call.command)).toEqual(["UpdateCommand", "UpdateCommand", "BatchGetCommand"]);
  });

  it("an achievement a racing writer put first (its item there, not listed yet) is listed, not a failure, and not counted; kept days earn a streak only in a row", async () => {
    const { calls, dynamo } = fakeTable([
      profile("u1", 10, { "article.completed": 1 }),
      earned("u1", "first-article"),
      // Seven days kept, three at most in a row: no streak-7.
      { ...progressKey("u1"), days: new Set([1, 2, 3, 5, 6, 7, 9].map(day)) },
    ]);
    const plan: UserProgress = {
      userId: "u1",
      keep: [],
      unkeep: [],
      awards: [{ type: "article.completed", grantId: "grant-a", awardedAt: "2026-12-07T10:00:00.000Z" }],
    };
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({ achieved: 0, failed: new Map() });
    expect(calls.map((call) => call.command)).toEqual(["BatchGetCommand", "PutCommand", "UpdateCommand"]);
    expect(calls[2]?.input).toEqual({
      TableName: "rewards",
      Key: progressKey("u1"),
      UpdateExpression: "ADD achievements :earned",
      ExpressionAttributeValues: { ":earned": new Set(["first-article"]) },
    });
  });

  it("asks again for the keys a read left unprocessed, and fails only the readers whose keys stay unprocessed", async () => {
    const items = [
      profile("u1", 10, { "article.completed": 1 }),
      profile("u2", 10, { "article.completed": 1 }),
    ];
    const plan = (userId: string): UserProgress => ({
      userId,
      keep: [],
      unkeep: [],
      awards: [
        { type: "article.completed", grantId: `grant-${userId}`, awardedAt: "2026-12-07T10:00:00.000Z" },
      ],
    });
    // u1's profile is left unprocessed by the first call alone; u2's by every call.
    const { calls, dynamo, table } = fakeTable(
      items,
      (key, call) => key.sk === "PROFILE" && (key.pk === "USER#u2" || call === 1),
    );
    const written = await writeProgress(deps(dynamo), [plan("u1"), plan("u2")], pLimit(4));
    expect(written).toEqual({
      achieved: 1,
      failed: new Map([["u2", "progress read: throttled (keys left unprocessed)"]]),
    });
    const reads = calls.filter((call) => call.command === "BatchGetCommand");
    expect(reads.map((read) => read.input.RequestItems?.rewards?.Keys)).toEqual([
      [profileKey("u1"), progressKey("u1"), profileKey("u2"), progressKey("u2")],
      [profileKey("u1"), profileKey("u2")],
      [profileKey("u2")],
      [profileKey("u2")],
    ]);
    expect(table.get(keyOf(achievementKey("u1", "first-article")))).toMatchObject({ grantId: "grant-u1" });
    expect(table.has(keyOf(achievementKey("u2", "first-article")))).toBe(false);
  });
});
