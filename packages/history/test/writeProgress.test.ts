import { Writable } from "node:stream";
import {
  achievementKey,
  countAttribute,
  dayNumberOf,
  dayOfNumber,
  guardKey,
  historyItemKey,
  profileKey,
  progressKey,
} from "@rewards/core";
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
 * a put on `attribute_not_exists(pk)`, GetItem, a Query of a partition by sort key prefix, and
 * BatchGetItem, which leaves unprocessed every key `unprocessed(key, call)` names (call counts
 * from 1). Every call, in order, in `calls`.
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
      if (command.constructor.name === "GetCommand")
        return { Item: structuredClone(table.get(keyOf(input.Key as Item))) };
      if (command.constructor.name === "QueryCommand") {
        const values = input.ExpressionAttributeValues as { ":pk": string; ":prefix": string };
        const found = [...table.values()]
          .filter((item) => item.pk === values[":pk"] && String(item.sk).startsWith(values[":prefix"]))
          .sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : 1));
        return { Items: structuredClone(found) };
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
        return {};
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
    stage: "test",
    historyDays: 400,
    dynamo,
    logger: createLogger({ destination, level: "silent", name: "rewards-history" }),
    clock: () => Date.parse("2026-12-31T00:00:00.000Z"),
  };
}

const day = (n: number) => dayNumberOf(`2026-12-${String(n).padStart(2, "0")}`);
const earned = (userId: string, achievement: string) => ({
  ...achievementKey(userId, achievement),
  userId,
  achievement,
  earnedAt: "2026-11-01T00:00:00.000Z",
});

/**
 * A reader's awards as the table holds them: each one's history item and guard, and the profile
 * that adds them up (`revokedAt` on the history item only when `inHistory` says the revocation
 * reached it: a lagging stream shard).
 */
function reader(
  userId: string,
  awards: Array<{
    type: string;
    xp: number;
    day?: number;
    minute: number;
    revokedAt?: string;
    inHistory?: boolean;
  }>,
) {
  const items: Item[] = [];
  let standing = 0;
  let xp = 0;
  const counts: Record<string, number> = {};
  for (const [i, award] of awards.entries()) {
    const awardedAt = new Date(Date.UTC(2026, 11, 7, 10, award.minute)).toISOString();
    const id = `grant-${userId}-${String(i).padStart(43 - userId.length - 1, "0")}`.slice(0, 49);
    const intentKey = `${userId}#${i}#${award.type}`;
    const data = award.day === undefined ? {} : { day: dayOfNumber(award.day) };
    const revoked = award.revokedAt === undefined ? {} : { revokedAt: award.revokedAt, revokedReason: "r" };
    items.push({ ...guardKey(intentKey), userId, type: award.type, amount: award.xp, awardedAt, ...revoked });
    items.push({
      ...historyItemKey(userId, awardedAt, id),
      id,
      type: award.type,
      data,
      xp: award.xp,
      eventId: `e${i}`,
      eventTime: awardedAt,
      earnedOn: awardedAt.slice(0, 10),
      awardedAt,
      intentKey,
      ...(award.inHistory === false ? {} : revoked),
    });
    if (award.revokedAt === undefined) {
      standing++;
      xp += award.xp;
      counts[award.type] = (counts[award.type] ?? 0) + 1;
    }
  }
  const profile = {
    ...profileKey(userId),
    xp,
    awards: standing,
    ...Object.fromEntries(Object.entries(counts).map(([type, n]) => [countAttribute(type), n])),
    ...(awards.some((award) => award.revokedAt !== undefined) ? { revoked: 1 } : {}),
  };
  return { items: [...items, profile], ids: items.filter((item) => item.id).map((item) => String(item.id)) };
}

const week = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ type: "streak.day", xp: 10, day: day(n), minute: n }));

describe("writeProgress", () => {
  it("adds and removes kept days, then decides achievements on the timeline: each one due put once, conditionally, credited to the award that crossed it, and listed", async () => {
    const u1 = reader("u1", [...week, { type: "signup.completed", xp: 100, minute: 30 }]);
    const { calls, dynamo, table } = fakeTable([
      ...u1.items,
      // Days 1–6 and 9 kept; first-share listed (and its item put) long ago.
      {
        ...progressKey("u1"),
        days: new Set([1, 2, 3, 4, 5, 6, 9].map(day)),
        achievements: new Set(["first-share"]),
      },
      earned("u1", "first-share"),
    ]);
    const plan: UserProgress = { userId: "u1", keep: [day(7)], unkeep: [day(9)], paid: true, revoked: false };
    const written = await writeProgress(deps(dynamo), [plan], pLimit(4));
    expect(written).toEqual({ achieved: 2, deferred: 0, failed: new Map() });
    expect(calls.map((call) => call.command)).toEqual([
      "UpdateCommand",
      "UpdateCommand",
      "BatchGetCommand",
      "QueryCommand",
      "BatchGetCommand",
      "GetCommand",
      "PutCommand",
      "PutCommand",
      "UpdateCommand",
    ]);
    expect(calls[0]?.input).toEqual({
      TableName: "rewards",
      Key: progressKey("u1"),
      UpdateExpression: "ADD #days :days",
      ExpressionAttributeNames: { "#days": "days" },
      ExpressionAttributeValues: { ":days": new Set([day(7)]) },
    });
    expect(calls[1]?.input).toMatchObject({ UpdateExpression: "DELETE #days :days" });
    expect(calls[2]?.input).toEqual({
      RequestItems: { rewards: { Keys: [profileKey("u1"), progressKey("u1")], ConsistentRead: true } },
    });
    // Every standing award's guard, read consistently, before anything is earned.
    expect(calls[4]?.input.RequestItems?.rewards?.Keys).toHaveLength(8);
    expect(calls[6]?.input).toEqual({
      TableName: "rewards",
      Item: {
        ...achievementKey("u1", "streak-7"),
        userId: "u1",
        achievement: "streak-7",
        title: "A week in a row",
        earnedAt: "2026-12-07T10:07:00.000Z",
        grantId: u1.ids[6],
      },
      ConditionExpression: "attribute_not_exists(pk)",
    });
    expect(calls[7]?.input.Item).toMatchObject({
      achievement: "level-2",
      earnedAt: "2026-12-07T10:30:00.000Z",
      grantId: u1.ids[7],
    });
    expect(calls[8]?.input).toEqual({
      TableName: "rewards",
      Key: progressKey("u1"),
      UpdateExpression: "ADD achievements :earned",
      ExpressionAttributeValues: { ":earned": new Set(["streak-7", "level-2"]) },
    });
    expect(table.get(keyOf(progressKey("u1")))).toEqual({
      ...progressKey("u1"),
      days: new Set([1, 2, 3, 4, 5, 6, 7].map(day)),
      achievements: new Set(["first-share", "streak-7", "level-2"]),
    });

    // The same batch again (a retry, a replay): the days are as they were, nothing is due, the timeline is not read.
    calls.length = 0;
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({
      achieved: 0,
      deferred: 0,
      failed: new Map(),
    });
    expect(calls.map((call) => call.command)).toEqual(["UpdateCommand", "UpdateCommand", "BatchGetCommand"]);
  });

  it("earns no run from a day whose guard is revoked though its history item is not yet (a revocation on a lagging shard)", async () => {
    const lagging = week.map((award) =>
      award.day === day(6) ? { ...award, revokedAt: "2026-12-07T10:06:30.000Z", inHistory: false } : award,
    );
    const { calls, dynamo, table } = fakeTable([
      ...reader("u1", lagging).items,
      {
        ...progressKey("u1"),
        days: new Set([1, 2, 3, 4, 5, 6].map(day)),
        achievements: new Set(["first-share"]),
      },
    ]);
    const plan: UserProgress = { userId: "u1", keep: [day(7)], unkeep: [], paid: true, revoked: false };
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({
      achieved: 0,
      deferred: 0,
      failed: new Map(),
    });
    expect(calls.filter((call) => call.command === "PutCommand")).toEqual([]);
    expect(table.has(keyOf(achievementKey("u1", "streak-7")))).toBe(false);
  });

  it("keeps what a count reached before a revocation that committed first (the writer reached the crossing award late)", async () => {
    const articles = Array.from({ length: 10 }, (_, i) => ({ type: "article.completed", xp: 20, minute: i }));
    (articles[0] as { revokedAt?: string }).revokedAt = "2026-12-07T10:20:00.000Z";
    const { dynamo, table } = fakeTable([
      ...reader("u1", articles).items,
      { ...progressKey("u1"), achievements: new Set(["first-article", "level-2"]) },
    ]);
    const plan: UserProgress = { userId: "u1", keep: [], unkeep: [], paid: true, revoked: false };
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toMatchObject({ achieved: 1, deferred: 0 });
    expect(table.get(keyOf(achievementKey("u1", "articles-10")))).toMatchObject({
      earnedAt: "2026-12-07T10:09:00.000Z",
    });
  });

  it("decides nothing while the history lacks an award the profile holds, and says so", async () => {
    const u1 = reader("u1", [...week]);
    const { dynamo, table } = fakeTable([
      // The seventh day's history item is not written yet: its record is still on its way.
      ...u1.items.filter((item) => !String(item.sk).includes(String(u1.ids[6]))),
      { ...progressKey("u1"), days: new Set([1, 2, 3, 4, 5, 6, 7].map(day)) },
    ]);
    const plan: UserProgress = { userId: "u1", keep: [], unkeep: [], paid: true, revoked: false };
    // first-article is not at stake; the six days the history holds make no run of seven.
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({
      achieved: 0,
      deferred: 0,
      failed: new Map(),
    });
    // Ten XP more than the profile: level-2 would be due on the timeline, but the profile says otherwise.
    const behind = reader("u2", [{ type: "signup.completed", xp: 100, minute: 1 }]);
    const profile = behind.items.find((item) => item.sk === "PROFILE") as Item;
    const more = fakeTable([
      ...behind.items.filter((item) => item !== profile),
      { ...profile, awards: 2, xp: 120 },
    ]);
    expect(
      await writeProgress(
        deps(more.dynamo),
        [{ userId: "u2", keep: [], unkeep: [], paid: true, revoked: false }],
        pLimit(4),
      ),
    ).toEqual({ achieved: 0, deferred: 1, failed: new Map() });
    expect(more.calls.filter((call) => call.command === "PutCommand")).toEqual([]);
    expect(table.size).toBeGreaterThan(0);
  });

  it("an achievement a racing writer put first (its item there, not listed yet) is listed, not a failure, and not counted", async () => {
    const { calls, dynamo } = fakeTable([
      ...reader("u1", [{ type: "article.completed", xp: 10, minute: 1 }]).items,
      earned("u1", "first-article"),
    ]);
    const plan: UserProgress = { userId: "u1", keep: [], unkeep: [], paid: true, revoked: false };
    expect(await writeProgress(deps(dynamo), [plan], pLimit(4))).toEqual({
      achieved: 0,
      deferred: 0,
      failed: new Map(),
    });
    expect(calls.map((call) => call.command).slice(-2)).toEqual(["PutCommand", "UpdateCommand"]);
    expect(calls.at(-1)?.input).toEqual({
      TableName: "rewards",
      Key: progressKey("u1"),
      UpdateExpression: "ADD achievements :earned",
      ExpressionAttributeValues: { ":earned": new Set(["first-article"]) },
    });
  });

  it("asks again for the keys a read left unprocessed, and fails only the readers whose keys stay unprocessed", async () => {
    const items = [
      ...reader("u1", [{ type: "article.completed", xp: 10, minute: 1 }]).items,
      ...reader("u2", [{ type: "article.completed", xp: 10, minute: 1 }]).items,
    ];
    const plan = (userId: string): UserProgress => ({
      userId,
      keep: [],
      unkeep: [],
      paid: true,
      revoked: false,
    });
    // u1's profile is left unprocessed by the first call alone; u2's by every call.
    const { calls, dynamo, table } = fakeTable(
      items,
      (key, call) => key.sk === "PROFILE" && (key.pk === "USER#u2" || call === 1),
    );
    const written = await writeProgress(deps(dynamo), [plan("u1"), plan("u2")], pLimit(4));
    expect(written).toEqual({
      achieved: 1,
      deferred: 0,
      failed: new Map([["u2", { reason: "progress read: throttled (keys left unprocessed)" }]]),
    });
    const reads = calls.filter(
      (call) =>
        call.command === "BatchGetCommand" && call.input.RequestItems?.rewards?.Keys?.[0]?.sk !== "IDEM",
    );
    expect(reads.map((read) => read.input.RequestItems?.rewards?.Keys)).toEqual([
      [profileKey("u1"), progressKey("u1"), profileKey("u2"), progressKey("u2")],
      [profileKey("u1"), profileKey("u2")],
      [profileKey("u2")],
      [profileKey("u2")],
    ]);
    expect(table.has(keyOf(achievementKey("u1", "first-article")))).toBe(true);
    expect(table.has(keyOf(achievementKey("u2", "first-article")))).toBe(false);
  });
});
