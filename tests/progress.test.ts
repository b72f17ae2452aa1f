import { randomUUID } from "node:crypto";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { dayNumberOf, dayOfNumber, profileKey, progressKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { createHistoryDeps, processBatch } from "@rewards/history";
import { revokeIntent } from "@rewards/ops";
import { createReader, InvalidReadInput } from "@rewards/reader";
import { completed, eventBody, stackTest } from "@rewards/testing";
import type { DynamoDBRecord } from "aws-lambda";
import { describe, expect } from "vitest";
import { award, everyRecord, ownTable } from "./fixtures/announcerFixtures";
import { achievementItems as achievements, writeHistory } from "./fixtures/historyFixtures";

const it = stackTest();

const today = dayNumberOf(new Date().toISOString().slice(0, 10));
/** Ten consecutive days ending today (UTC). */
const days = Array.from({ length: 10 }, (_, i) => dayOfNumber(today - 9 + i));
const streakDay = (userId: string, day: string) => eventBody("streak.day", { userId, day });

async function keptDays(env: Record<string, string>, tableName: string, userId: string) {
  const { Item } = await createDynamoClient(env).send(
    new GetCommand({ TableName: tableName, Key: progressKey(userId), ConsistentRead: true }),
  );
  return [...((Item?.days as Set<number> | undefined) ?? [])].sort((a, b) => a - b).map(dayOfNumber);
}

describe("a reader's progress, derived exactly once from the stream (kept days, achievements)", () => {
  it("keeps ten days sent out of order with copies, splits them when the middle one is revoked, and earns each achievement once, for good", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const user = `p-${randomUUID().slice(0, 6)}`;
    const middle = days[5] as string;
    // Out of order, with copies (a copy is a duplicate award: no second guard), the middle day last.
    const order = [
      days[9],
      days[0],
      days[7],
      days[2],
      days[9],
      days[1],
      days[8],
      days[3],
      days[6],
      days[4],
      days[0],
    ];
    await award(
      env,
      order.map((day) => streakDay(user, day as string)),
    );
    await award(env, [
      completed(user, "a"),
      eventBody("article.shared", { userId: user, articleSlug: "a", channel: "x" }),
    ]);
    await award(env, [streakDay(user, middle)]);

    const records = await everyRecord(env, table.streamArn);
    // Every record, then every record again in reverse (a replay, out of order): the same state.
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });
    expect(await writeHistory(env, [...records].reverse())).toEqual({ batchItemFailures: [] });

    expect(await keptDays(env, table.tableName, user)).toEqual(days);
    const earned = await achievements(env, table.tableName, user);
    // 10 days × 10 XP + 20 + 5 = 125 XP: level 2; a run of 10; one article; one share.
    expect(earned.map((item) => item.achievement).sort()).toEqual([
      "first-article",
      "first-share",
      "level-2",
      "streak-7",
    ]);
    const byId = new Map(earned.map((item) => [item.achievement, item]));
    expect(byId.get("first-article")).toMatchObject({ userId: user, title: "First article" });
    expect(byId.get("first-article")?.grantId).toMatch(/^grant-/);
    expect(byId.get("streak-7")?.grantId).toMatch(/^grant-/);

    const at = (day: string, time: string) => () => new Date(`${day}T${time}Z`);
    const readerAt = (clock: () => Date) =>
      createReader({ tableName: table.tableName, client: dynamo, clock });
    const dynamo = createDynamoClient(env);
    const lastDay = days[9] as string;
    expect((await readerAt(at(lastDay, "12:00:00")).profile(user)).streak).toEqual({
      current: 10,
      longest: 10,
      lastDay,
    });
    const listed = await readerAt(at(lastDay, "12:00:00")).achievements(user);
    expect(listed.achievements.map((a) => a.id).sort()).toEqual([
      "first-article",
      "first-share",
      "level-2",
      "streak-7",
    ]);
    const times = listed.achievements.map((a) => a.earnedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(listed.achievements.find((a) => a.id === "streak-7")).toMatchObject({
      title: "A week in a row",
      grantId: byId.get("streak-7")?.grantId,
    });

    const revoked = await revokeIntent(1, `${user}#${middle}#streak.day`, {
      dynamo,
      tableName: table.tableName,
      reason: "test",
      dryRun: false,
    });
    expect(revoked).toMatchObject({ verdict: "revoked" });
    // The whole stream again, the award's old INSERT image included: the revocation stands.
    const again = await everyRecord(env, table.streamArn);
    expect(await writeHistory(env, again)).toEqual({ batchItemFailures: [] });
    expect(await keptDays(env, table.tableName, user)).toEqual(days.filter((day) => day !== middle));
    // A late replay of the batches from before the revocation alone: the older image keeps nothing.
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });
    expect(await keptDays(env, table.tableName, user)).toEqual(days.filter((day) => day !== middle));
    // Sticky: the run of ten is gone, streak-7 and level-2 stay, nothing is earned twice.
    const after = await achievements(env, table.tableName, user);
    expect(after).toEqual(earned);

    // Two runs now: the days after the revoked one (4, current) and before it (5, the longest).
    const next = dayOfNumber(today + 1);
    const later = dayOfNumber(today + 2);
    expect((await readerAt(at(lastDay, "23:00:00")).profile(user)).streak).toEqual({
      current: 4,
      longest: 5,
      lastDay,
    });
    // Yesterday's last day still counts; two days ago's does not.
    expect((await readerAt(at(next, "11:00:00")).profile(user)).streak.current).toBe(4);
    expect((await readerAt(at(later, "00:30:00")).profile(user)).streak).toEqual({
      current: 0,
      longest: 5,
      lastDay,
    });
    // Where it is already tomorrow (UTC+14), the last day is yesterday at 23:00 UTC, and two days ago at 11:00 the next day.
    const kiritimati = { timeZone: "Pacific/Kiritimati" };
    expect((await readerAt(at(lastDay, "23:00:00")).profile(user, kiritimati)).streak.current).toBe(4);
    expect((await readerAt(at(next, "11:00:00")).profile(user, kiritimati)).streak.current).toBe(0);
    await expect(
      readerAt(at(lastDay, "12:00:00")).profile(user, { timeZone: "Mars/Olympus" }),
    ).rejects.toMatchObject({
      name: "InvalidReadInput",
      parameter: "timeZone",
    });
    await expect(
      readerAt(at(lastDay, "12:00:00")).profile(user, { timeZone: "Mars/Olympus" }),
    ).rejects.toBeInstanceOf(InvalidReadInput);
    const { Item: profile } = await dynamo.send(
      new GetCommand({ TableName: table.tableName, Key: profileKey(user), ConsistentRead: true }),
    );
    expect(profile).toMatchObject({ xp: 115, awards: 11 });
  });

  it("a replay of an old batch beside the live writer's revocation of its day leaves the day un-kept", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const dynamo = createDynamoClient(env);
    const user = `r-${randomUUID().slice(0, 6)}`;
    const day = days[9] as string;
    await award(env, [streakDay(user, day)]);
    // The batch the writer gave up on: the award's INSERT alone.
    const given = await everyRecord(env, table.streamArn);
    // The live writer meets the revocation while the operator replays that batch: between the
    // replay's put of the old image and its ADD of the day (the live writer's DELETE comes first).
    const live = async () => {
      await revokeIntent(1, `${user}#${day}#streak.day`, {
        dynamo,
        tableName: table.tableName,
        reason: "test",
        dryRun: false,
      });
      expect(await writeHistory(env, await everyRecord(env, table.streamArn))).toEqual({
        batchItemFailures: [],
      });
    };
    let interleaved = false;
    const deps = { ...createHistoryDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
    const racing = {
      send: async (command: { input: { UpdateExpression?: string } }) => {
        if (
          !interleaved &&
          command instanceof UpdateCommand &&
          command.input.UpdateExpression?.startsWith("ADD #days")
        ) {
          interleaved = true;
          await live();
        }
        return deps.dynamo.send(command as never);
      },
    } as typeof deps.dynamo;
    const replay = await processBatch({ ...deps, dynamo: racing }, { Records: given as DynamoDBRecord[] });
    expect(interleaved).toBe(true);
    expect(replay.response).toEqual({ batchItemFailures: [] });
    expect(await keptDays(env, table.tableName, user)).toEqual([]);
  });
});
