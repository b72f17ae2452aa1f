import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  EMPTY_WEEK,
  isoWeekOf,
  isoWeekPlus,
  profileKey,
  weekAfter,
  weekItemOf,
  weekKey,
} from "@rewards/core";
import { applyToWeek, createDynamoClient } from "@rewards/core/aws";
import { revokeIntent } from "@rewards/ops";
import { createReader, InvalidReadInput } from "@rewards/reader";
import { completed, eventBody, runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, everyRecord, ownTable } from "./fixtures/announcerFixtures";
import { writeHistory } from "./fixtures/historyFixtures";

const it = stackTest();

const DAY_MS = 86_400_000;
const thisWeek = isoWeekOf(Date.now());
const lastWeek = isoWeekPlus(thisWeek, -1);
const shared = (userId: string, slug: string) =>
  eventBody("article.shared", { userId, articleSlug: slug, channel: "x" });
const streakDay = (userId: string, day: string) => eventBody("streak.day", { userId, day });
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/** Every reader's XP of `week` as their history items sum it (the truth the board must equal). */
async function historySums(env: Record<string, string>, tableName: string, users: string[], week: string) {
  const dynamo = createDynamoClient(env);
  const sums: Record<string, number> = {};
  for (const user of users) {
    const { Items = [] } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
        ExpressionAttributeValues: { ":pk": profileKey(user).pk, ":award": "AWARD#" },
        ConsistentRead: true,
      }),
    );
    sums[user] = Items.filter((item) => !item.revokedAt && isoWeekOf(item.earnedOn) === week).reduce(
      (sum, item) => sum + Number(item.xp),
      0,
    );
  }
  return sums;
}

describe("the week's board, summed exactly once from the history", () => {
  it("ranks four readers sent with copies 1, 2, 2, 4; pages join to the whole; a revocation comes off; last week stays last week's", async ({
    stack,
  }) => {
    // Two shards, so the board is a merge of shards as it is at any size.
    const table = await ownTable(stack);
    const env = { ...table.env, REWARDS_BOARD_SHARDS: "2" };
    const dynamo = createDynamoClient(table.env);
    const reader = createReader({ tableName: table.tableName, client: dynamo, boardShards: 2 });
    const [a, b, c, d] = ["b-anna", "b-bert", "b-cleo", "b-dave"] as const;
    const copies = (bodies: string[]) => [...bodies, ...bodies];
    await award(env, copies([completed(a, "1"), completed(a, "2"), completed(a, "3")])); // 60
    await award(env, copies([completed(b, "1"), streakDay(b, daysAgo(0))])); // 30
    await award(
      env,
      copies([streakDay(c, daysAgo(0)), shared(c, "1"), shared(c, "2"), shared(c, "3"), shared(c, "4")]),
    ); // 30
    await award(env, copies([shared(d, "1")])); // 5
    // Earned last week (its event's time), paid now: last week's board only.
    const lastWeekTime = new Date(Date.now() - 7 * DAY_MS).toISOString();
    await award(env, [
      eventBody("article.completed", { userId: d, articleSlug: "old" }, { time: lastWeekTime }),
    ]);

    const records = await everyRecord(env, table.streamArn);
    // Every record, then all of them again in reverse (a replay, out of order): the same board.
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });
    expect(await writeHistory(env, [...records].reverse())).toEqual({ batchItemFailures: [] });

    const expected = [
      { rank: 1, userId: a, xp: 60 },
      { rank: 2, userId: b, xp: 30 },
      { rank: 2, userId: c, xp: 30 },
      { rank: 4, userId: d, xp: 5 },
    ];
    expect(await reader.board()).toEqual({ week: thisWeek, entries: expected });
    expect(await reader.board({ week: lastWeek })).toEqual({
      week: lastWeek,
      entries: [{ rank: 1, userId: d, xp: 20 }],
    });

    // Pages of 2 join to the whole; the last has no cursor.
    const first = await reader.board({ limit: 2 });
    expect(first.entries).toEqual(expected.slice(0, 2));
    const second = await reader.board({ limit: 2, cursor: first.cursor as string });
    expect(second).toEqual({ week: thisWeek, entries: expected.slice(2) });
    // Pages of 1: a tie across a page keeps its rank.
    const byOne = [];
    let cursor: string | undefined;
    do {
      const page = await reader.board({ limit: 1, ...(cursor ? { cursor } : {}) });
      byOne.push(...page.entries);
      cursor = page.cursor;
    } while (cursor);
    expect(byOne).toEqual(expected);

    expect((await reader.profile(c)).week).toEqual({ week: thisWeek, xp: 30, rank: 2 });
    expect((await reader.profile(d)).week).toEqual({ week: thisWeek, xp: 5, rank: 4 });
    expect((await reader.profile("b-nobody")).week).toEqual({ week: thisWeek, xp: 0 });
    const users = [a, b, c, d];
    expect(await historySums(env, table.tableName, users, thisWeek)).toEqual({
      [a]: 60,
      [b]: 30,
      [c]: 30,
      [d]: 5,
    });

    // Revoke one of anna's articles: 40, still first; the old INSERT replayed after it changes nothing.
    const revoked = await revokeIntent(1, `${a}#2#article.completed`, {
      dynamo,
      tableName: table.tableName,
      reason: "test",
      dryRun: false,
    });
    expect(revoked).toMatchObject({ verdict: "revoked" });
    expect(await writeHistory(env, await everyRecord(env, table.streamArn))).toEqual({
      batchItemFailures: [],
    });
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });
    const after = await reader.board();
    expect(after.entries).toEqual([{ rank: 1, userId: a, xp: 40 }, ...expected.slice(1)]);
    const sums = await historySums(env, table.tableName, users, thisWeek);
    expect(Object.fromEntries(after.entries.map((entry) => [entry.userId, entry.xp]))).toEqual(sums);
  });

  it("refuses a bad week, limit or cursor, naming it, before reading anything", async ({ stack }) => {
    const reader = createReader({ tableName: "no-such-table", client: createDynamoClient(stack.env) });
    const refused = async (options: Parameters<typeof reader.board>[0]) => {
      const error = await reader.board(options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidReadInput);
      return (error as InvalidReadInput).parameter;
    };
    expect(await refused({ week: "2025-W53" })).toBe("week");
    expect(await refused({ week: "2026-49" })).toBe("week");
    expect(await refused({ limit: 0 })).toBe("limit");
    expect(await refused({ limit: 101 })).toBe("limit");
    expect(await refused({ cursor: "abc" })).toBe("cursor");
  });

  it("two writers of one week at once: the one that read first loses the put, reads again and adds its award to the other's", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const dynamo = createDynamoClient(table.env);
    const user = "b-race";
    const grant = (n: number) => `grant-${String(n).repeat(43)}`;
    // Writer A has read the empty week and made it 20; its put waits until B has put its 10.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let paused: () => void = () => {};
    const pausedAtPut = new Promise<void>((resolve) => {
      paused = resolve;
    });
    let held = false;
    const slow = {
      async send(command: Parameters<typeof dynamo.send>[0]) {
        if (command instanceof PutCommand && !held) {
          held = true;
          paused();
          await gate;
        }
        return dynamo.send(command);
      },
    } as typeof dynamo;
    const week = isoWeekOf(Date.now());
    const weekTable = { tableName: table.tableName, shards: 1, keepWeeks: 8 };
    const a = applyToWeek({ ...weekTable, dynamo: slow }, user, week, [
      { id: grant(1), xp: 20, revoked: false },
    ]);
    await pausedAtPut;
    expect(
      await applyToWeek({ ...weekTable, dynamo }, user, week, [{ id: grant(2), xp: 10, revoked: false }]),
    ).toEqual({ xp: 10, written: true });
    release();
    expect(await a).toEqual({ xp: 30, written: true });
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: table.tableName, Key: weekKey(user, week), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ xp: 30, version: 2, boardPk: `BOARD#${week}#0` });
    // A copy of either changes nothing and puts nothing.
    expect(
      await applyToWeek({ ...weekTable, dynamo }, user, week, [{ id: grant(1), xp: 20, revoked: false }]),
    ).toEqual({ xp: 30, written: false });
  });

  it("ranks a reader behind more readers than a shard's first page by counting on (a second call), exactly", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const dynamo = createDynamoClient(table.env);
    const week = isoWeekOf(Date.now());
    // One shard: 60 readers with 100..159 XP, then the reader with 50 (rank 61) and one with 100 (a tie: rank 60).
    const put = (userId: string, xp: number) =>
      dynamo.send(
        new PutCommand({
          TableName: table.tableName,
          Item: weekItemOf({
            userId,
            week,
            state: weekAfter(EMPTY_WEEK, [{ id: `grant-${userId.padEnd(43, "x")}`, xp, revoked: false }]),
            version: 1,
            updatedAt: new Date().toISOString(),
            shards: 1,
            keepWeeks: 8,
          }),
        }),
      );
    for (let i = 0; i < 60; i++) await put(`r-${String(i).padStart(2, "0")}`, 100 + i);
    await put("r-me", 50);
    await put("r-tie", 100);
    const reader = createReader({ tableName: table.tableName, client: dynamo, boardShards: 1 });
    expect((await reader.profile("r-me")).week).toEqual({ week, xp: 50, rank: 62 });
    expect((await reader.profile("r-tie")).week).toEqual({ week, xp: 100, rank: 60 });
    expect((await reader.profile("r-59")).week).toEqual({ week, xp: 159, rank: 1 });
    const top = await reader.board({ limit: 100 });
    expect(top.entries).toHaveLength(62);
    expect(top.entries.slice(-3)).toEqual([
      { rank: 60, userId: "r-00", xp: 100 },
      { rank: 60, userId: "r-tie", xp: 100 },
      { rank: 62, userId: "r-me", xp: 50 },
    ]);
  });

  it("rewards backfill puts back a week item deleted or edited by hand, from the history; a second run changes nothing", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const dynamo = createDynamoClient(env);
    await award(env, [completed("w-one", "1"), completed("w-one", "2"), completed("w-two", "1")]);
    expect(await writeHistory(env, await everyRecord(env, table.streamArn))).toEqual({
      batchItemFailures: [],
    });
    const week = isoWeekOf(Date.now());
    await dynamo.send(new DeleteCommand({ TableName: table.tableName, Key: weekKey("w-one", week) }));
    await dynamo.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: weekKey("w-two", week),
        UpdateExpression: "SET xp = :xp, boardSk = :sk",
        ExpressionAttributeValues: { ":xp": 500, ":sk": "999999999999499#w-two" },
      }),
    );
    const cli = (...args: string[]) => runCli(["backfill", ...args], { ...env, TABLE_NAME: table.tableName });
    const run = await cli("--all", "--json");
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(run.stdout).weeks).toEqual({
      dryRun: false,
      interrupted: false,
      readers: [
        { userId: "w-one", changed: [{ week, from: 0, to: 40 }] },
        { userId: "w-two", changed: [{ week, from: 500, to: 20 }] },
      ],
      totals: { readers: 2, weeksChanged: 2, failed: 0, skipped: 0 },
    });
    const reader = createReader({ tableName: table.tableName, client: dynamo });
    expect((await reader.board()).entries).toEqual([
      { rank: 1, userId: "w-one", xp: 40 },
      { rank: 2, userId: "w-two", xp: 20 },
    ]);
    const again = await cli("--all", "--json");
    expect(JSON.parse(again.stdout).weeks.totals).toEqual({
      readers: 2,
      weeksChanged: 0,
      failed: 0,
      skipped: 0,
    });
    // The rebuilt items take live awards as the writer's do: a copy of a counted one adds nothing.
    expect(await writeHistory(env, await everyRecord(env, table.streamArn))).toEqual({
      batchItemFailures: [],
    });
    expect((await reader.board()).entries.map((entry) => entry.xp)).toEqual([40, 20]);
  });

  it("a role that cannot read the board's index gets the profile without a rank; another failure of the board fails the profile", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award(table.env, [completed("iam-one", "1")]);
    expect(await writeHistory(table.env, await everyRecord(table.env, table.streamArn))).toEqual({
      batchItemFailures: [],
    });
    const refusing = (name: string) => {
      const client = new DynamoDBClient({
        region: "us-east-1",
        endpoint: stack.endpoints.dynamodb,
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
      });
      client.middlewareStack.add(
        (next) => async (args) => {
          if ((args.input as { IndexName?: string }).IndexName)
            throw Object.assign(new Error(`${name} on the board's index`), { name });
          return next(args);
        },
        { step: "initialize" },
      );
      return createReader({ tableName: table.tableName, client });
    };
    const week = isoWeekOf(Date.now());
    expect((await refusing("AccessDeniedException").profile("iam-one")).week).toEqual({ week, xp: 20 });
    await expect(refusing("ProvisionedThroughputExceededException").profile("iam-one")).rejects.toThrow(
      "ProvisionedThroughputExceededException on the board's index",
    );
  });

  it("a user id too long for the index's key (256 four-byte characters) keeps its week, off the board; the writer never stalls on it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const long = `${"😀".repeat(253)}abc`;
    await award(table.env, [completed(long, "1"), completed("short-one", "1")]);
    expect(await writeHistory(table.env, await everyRecord(table.env, table.streamArn))).toEqual({
      batchItemFailures: [],
    });
    const reader = createReader({ tableName: table.tableName, client: createDynamoClient(table.env) });
    // Its rank still says where its XP stands (a tie with short-one's 20), though it is not listed.
    expect((await reader.profile(long)).week).toEqual({ week: isoWeekOf(Date.now()), xp: 20, rank: 1 });
    expect((await reader.board()).entries).toEqual([{ rank: 1, userId: "short-one", xp: 20 }]);
  });
});
