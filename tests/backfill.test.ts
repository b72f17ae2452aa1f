import { randomUUID } from "node:crypto";
import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  countAttribute,
  dayNumberOf,
  dayOfNumber,
  eventTypes,
  grantId,
  guardKey,
  profileKey,
  progressKey,
} from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { repairProgress } from "@rewards/ops";
import { completed, eventBody, runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { achievementItems, writeHistoryOfStream } from "./fixtures/historyFixtures";

const it = stackTest();

const today = dayNumberOf(new Date().toISOString().slice(0, 10));
const days = Array.from({ length: 7 }, (_, i) => dayOfNumber(today - 6 + i));

/** A reader as the code before counts, streaks and achievements left them: no counts, no kept days, no achievements. */
async function asPaidBefore(env: Record<string, string>, tableName: string, userId: string) {
  const dynamo = createDynamoClient(env);
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: profileKey(userId),
      UpdateExpression: `REMOVE ${eventTypes.map((_, i) => `#c${i}`).join(", ")}`,
      ExpressionAttributeNames: Object.fromEntries(
        eventTypes.map((type, i) => [`#c${i}`, countAttribute(type)]),
      ),
    }),
  );
  await dynamo.send(new DeleteCommand({ TableName: tableName, Key: progressKey(userId) }));
  for (const item of await achievementItems(env, tableName, userId))
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
}

async function stored(env: Record<string, string>, tableName: string, userId: string) {
  const dynamo = createDynamoClient(env);
  const [{ Item: profile }, { Item: streak }] = await Promise.all([
    dynamo.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true })),
    dynamo.send(new GetCommand({ TableName: tableName, Key: progressKey(userId), ConsistentRead: true })),
  ]);
  return {
    counts: Object.fromEntries(eventTypes.map((type) => [type, profile?.[countAttribute(type)]])),
    days: [...((streak?.days as Set<number> | undefined) ?? [])].sort((a, b) => a - b).map(dayOfNumber),
    achievements: (await achievementItems(env, tableName, userId)).map((item) => item.achievement).sort(),
  };
}

describe("rewards backfill: readers paid before counts, streaks and achievements", () => {
  it("a dry run writes nothing; the run sets counts, kept days and achievements exactly; a second run changes nothing", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const user = `b-${randomUUID().slice(0, 6)}`;
    await award(env, [
      ...days.map((day) => eventBody("streak.day", { userId: user, day })),
      completed(user, "a"),
      completed(user, "b"),
    ]);
    await writeHistoryOfStream(env, table.streamArn);
    await asPaidBefore(env, table.tableName, user);
    expect(await stored(env, table.tableName, user)).toEqual({
      counts: Object.fromEntries(eventTypes.map((type) => [type, undefined])),
      days: [],
      achievements: [],
    });

    const cli = (...args: string[]) => runCli(["backfill", ...args], { ...env, TABLE_NAME: table.tableName });
    const dry = await cli("--user", user, "--dry-run", "--json");
    expect([dry.code, dry.stderr]).toEqual([0, ""]);
    // One transaction: the seven days (its places 0–6), then the two articles (7, 8), at one instant.
    const { Item: guard } = await createDynamoClient(env).send(
      new GetCommand({
        TableName: table.tableName,
        Key: guardKey(`${user}#a#article.completed`),
        ConsistentRead: true,
      }),
    );
    const at = String(guard?.awardedAt);
    const crossing = (achievement: string, intentKey: string) => ({
      achievement,
      earnedAt: at,
      grantId: grantId(intentKey, at),
    });
    expect(JSON.parse(dry.stdout)).toEqual({
      dryRun: true,
      interrupted: false,
      // The whole table, read once.
      read: { items: 20, complete: true },
      counts: true,
      readers: [
        {
          userId: user,
          daysKept: 7,
          daysUnkept: 0,
          achieved: ["streak-7", "first-article", "level-2"],
          earned: [
            crossing("streak-7", `${user}#${days[6]}#streak.day`),
            crossing("first-article", `${user}#a#article.completed`),
            crossing("level-2", `${user}#b#article.completed`),
          ],
          counts: "set",
        },
      ],
      totals: { readers: 1, daysKept: 7, daysUnkept: 0, achieved: 3, countsSet: 1, waiting: 0, failed: 0 },
      // The history's writer put the week as it wrote the history: nothing to set.
      weeks: {
        dryRun: true,
        interrupted: false,
        readers: [{ userId: user, changed: [] }],
        totals: { readers: 1, weeksChanged: 0, failed: 0, skipped: 0 },
      },
    });
    expect((await stored(env, table.tableName, user)).achievements).toEqual([]);

    const run = await cli("--all");
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toContain(
      "progress of 1 reader: 7 days kept, 0 days un-kept, 3 achievements earned, counts set for 1 reader",
    );
    const right = {
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 7, "signup.completed": 0 },
      days,
      achievements: ["first-article", "level-2", "streak-7"],
    };
    expect(await stored(env, table.tableName, user)).toEqual(right);

    const again = await cli("--user", user, "--json");
    expect(JSON.parse(again.stdout).totals).toEqual({
      readers: 1,
      daysKept: 0,
      daysUnkept: 0,
      achieved: 0,
      countsSet: 0,
      waiting: 0,
      failed: 0,
    });
    expect(await stored(env, table.tableName, user)).toEqual(right);
  });

  it("beside live traffic: an award paid while it reads is never counted twice; a count below the history's is raised to it, never lowered", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const user = `l-${randomUUID().slice(0, 6)}`;
    await award(env, [completed(user, "a"), completed(user, "b")]);
    await writeHistoryOfStream(env, table.streamArn);
    await asPaidBefore(env, table.tableName, user);

    // A reader paid between the backfill's read and its write: the award's own transaction adds its count.
    const dynamo = createDynamoClient(env);
    let raced = false;
    const racing = {
      send: async (command: { input: { UpdateExpression?: string } }) => {
        if (!raced && command.input.UpdateExpression?.startsWith("SET ")) {
          raced = true;
          await award(env, [completed(user, "c")]);
        }
        return dynamo.send(command as never);
      },
    } as unknown as typeof dynamo;
    const first = await repairProgress(racing, {
      tableName: table.tableName,
      userId: user,
      counts: true,
      dryRun: false,
    });
    expect(first.readers[0]?.counts).toBe("changed");
    expect((await stored(env, table.tableName, user)).counts["article.completed"]).toBe(1);

    // The transaction counted its own award, and the two before it are still uncounted: the
    // count (1) is below the truth the history shows (3), so the next run raises it, and a run
    // after that finds it right.
    await writeHistoryOfStream(env, table.streamArn);
    const backfill = () =>
      repairProgress(dynamo, { tableName: table.tableName, userId: user, counts: true, dryRun: false });
    expect((await backfill()).readers[0]?.counts).toBe("set");
    const truth = { "article.completed": 3, "article.shared": 0, "streak.day": 0, "signup.completed": 0 };
    expect((await stored(env, table.tableName, user)).counts).toEqual(truth);
    expect((await backfill()).readers[0]?.counts).toBe("right");
    expect((await stored(env, table.tableName, user)).counts).toEqual(truth);
  });
});
