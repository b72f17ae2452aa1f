import { randomUUID } from "node:crypto";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  dayNumberOf,
  dayOfNumber,
  grantId,
  guardKey,
  historyItemOf,
  historyPutOf,
  profileKey,
  progressKey,
} from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { rebuildHistory, repairProgress, revokeIntent } from "@rewards/ops";
import { completed, eventBody, runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, everyRecord, ownTable } from "./fixtures/announcerFixtures";
import { achievementItems, writeHistory } from "./fixtures/historyFixtures";

/**
 * Achievements decided on the reader's timeline (docs/reading.md#when-exactly), with the history's
 * writer driven in this process at chosen moments: its records held back, delivered late, in the
 * bad order, twice, beside a backfill; then a rebuild, which must find nothing to change.
 */
const it = stackTest();

type StreamRecord = Awaited<ReturnType<typeof everyRecord>>[number];
type Env = Record<string, string>;

const today = dayNumberOf(new Date().toISOString().slice(0, 10));
const streakDay = (userId: string, day: string) => eventBody("streak.day", { userId, day });
const articleKey = (user: string, slug: string) => `${user}#${slug}#article.completed`;
const dayKey = (user: string, day: string) => `${user}#${day}#streak.day`;

/** The stream's records for guard `intentKey` (its INSERT, then its revocation's MODIFY), in order. */
const ofGuard = (records: readonly StreamRecord[], intentKey: string) =>
  records.filter((record) => record.dynamodb?.Keys?.pk?.S === guardKey(intentKey).pk);
/** The records in `after` that `before` did not hold. */
const since = (before: readonly StreamRecord[], after: readonly StreamRecord[]) => {
  const seen = new Set(before.map((record) => record.dynamodb?.SequenceNumber));
  return after.filter((record) => !seen.has(record.dynamodb?.SequenceNumber));
};

async function deliver(env: Env, records: readonly StreamRecord[]) {
  expect(await writeHistory(env, [...records])).toEqual({ batchItemFailures: [] });
}

async function revoke(env: Env, tableName: string, intentKey: string) {
  const result = await revokeIntent(1, intentKey, {
    dynamo: createDynamoClient(env),
    tableName,
    reason: "test",
    dryRun: false,
  });
  expect(result).toMatchObject({ verdict: "revoked" });
}

/** The reader's achievement items: id → { earnedAt, grantId }. */
async function achievementsOf(env: Env, tableName: string, userId: string) {
  return Object.fromEntries(
    (await achievementItems(env, tableName, userId)).map((item) => [
      item.achievement,
      { earnedAt: item.earnedAt, grantId: item.grantId },
    ]),
  );
}

/** The guard of `intentKey`: its awardedAt and its §10 id. */
async function guardOf(env: Env, tableName: string, intentKey: string) {
  const { Item } = await createDynamoClient(env).send(
    new GetCommand({ TableName: tableName, Key: guardKey(intentKey), ConsistentRead: true }),
  );
  const awardedAt = String(Item?.awardedAt);
  return { awardedAt, grantId: grantId(intentKey, awardedAt), item: Item };
}

async function keptDays(env: Env, tableName: string, userId: string) {
  const { Item } = await createDynamoClient(env).send(
    new GetCommand({ TableName: tableName, Key: progressKey(userId), ConsistentRead: true }),
  );
  return [...((Item?.days as Set<number> | undefined) ?? [])].sort((a, b) => a - b).map(dayOfNumber);
}

/** `history rebuild` of one reader: the history from the guards, then their progress; what it changed. */
async function rebuild(env: Env, tableName: string, userId: string) {
  const dynamo = createDynamoClient(env);
  const history = await rebuildHistory(dynamo, { tableName, historyDays: 400, userId, dryRun: false });
  const progress = await repairProgress(dynamo, { tableName, userId, counts: false, dryRun: false });
  return { history: history.totals, progress: progress.totals };
}

describe("achievements on the reader's timeline, whoever decides and whenever the records come", () => {
  it("a revocation committed before the writer reaches the crossing award leaves what the reader reached: articles-10, level-2, streak-7", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const user = `lag-${randomUUID().slice(0, 6)}`;
    // Ten articles, one transaction each; then the first revoked, before the writer has read any of it.
    for (let i = 1; i <= 10; i++) await award(env, [completed(user, `a${i}`)]);
    // Seven days in a row, each its own transaction (10 XP each).
    const week = Array.from({ length: 7 }, (_, i) => dayOfNumber(today - 6 + i));
    for (const day of week) await award(env, [streakDay(user, day)]);
    await revoke(env, tableName, articleKey(user, "a1"));
    await revoke(env, tableName, dayKey(user, week[0] as string));
    const records = await everyRecord(env, table.streamArn);

    // The writer lagging: every record reaches it only now, the revocations among them.
    await deliver(env, records);
    const tenth = await guardOf(env, tableName, articleKey(user, "a10"));
    const fifth = await guardOf(env, tableName, articleKey(user, "a5"));
    const seventh = await guardOf(env, tableName, dayKey(user, week[6] as string));
    const held = await achievementsOf(env, tableName, user);
    expect(held).toEqual({
      "first-article": expect.any(Object),
      "level-2": { earnedAt: fifth.awardedAt, grantId: fifth.grantId },
      "articles-10": { earnedAt: tenth.awardedAt, grantId: tenth.grantId },
      "level-3": expect.any(Object),
      "streak-7": { earnedAt: seventh.awardedAt, grantId: seventh.grantId },
    });
    // 200 + 70 − 20 − 10: level 3 was reached at 250, before the revocations.
    const { Item: profile } = await createDynamoClient(env).send(
      new GetCommand({ TableName: tableName, Key: profileKey(user), ConsistentRead: true }),
    );
    expect(profile).toMatchObject({ xp: 240, awards: 15, revoked: 2, "count:article.completed": 9 });

    // The same records again, reversed (a retried batch, a replay out of order): nothing changes.
    await deliver(env, [...records].reverse());
    expect(await achievementsOf(env, tableName, user)).toEqual(held);
    // A rebuild after all of it finds nothing to change, and a second backfill neither.
    expect(await rebuild(env, tableName, user)).toMatchObject({
      history: { written: 0, corrected: 0 },
      progress: { daysKept: 0, daysUnkept: 0, achieved: 0, waiting: 0, failed: 0 },
    });
    expect(await achievementsOf(env, tableName, user)).toEqual(held);
  });

  it("one batch holding both the crossing award and its revocation: earned at the crossing; the 100-then-80 level too", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const user = `one-${randomUUID().slice(0, 6)}`;
    for (let i = 1; i <= 4; i++) await award(env, [completed(user, `a${i}`)]);
    const before = await everyRecord(env, table.streamArn);
    await deliver(env, before);
    // The fifth article reaches 100 XP; revoked at once: 80.
    await award(env, [completed(user, "a5")]);
    await revoke(env, tableName, articleKey(user, "a5"));
    const batch = since(before, await everyRecord(env, table.streamArn));
    expect(ofGuard(batch, articleKey(user, "a5")).map((record) => record.eventName)).toEqual([
      "INSERT",
      "MODIFY",
    ]);
    await deliver(env, batch);
    const fifth = await guardOf(env, tableName, articleKey(user, "a5"));
    expect((await achievementsOf(env, tableName, user))["level-2"]).toEqual({
      earnedAt: fifth.awardedAt,
      grantId: fifth.grantId,
    });
  });

  it("two stream shards in the bad order: a revocation read late never lets a later day complete a run it had broken", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const user = `shard-${randomUUID().slice(0, 6)}`;
    const days = Array.from({ length: 7 }, (_, i) => dayOfNumber(today - 6 + i));
    // D-6 … D-1 paid, each its own guard (its own partition: on AWS, its own shard), and kept.
    for (const day of days.slice(0, 6)) await award(env, [streakDay(user, day)]);
    const kept = await everyRecord(env, table.streamArn);
    await deliver(env, kept);
    expect(await keptDays(env, tableName, user)).toEqual(days.slice(0, 6));
    // D-1 revoked, then D paid: the revocation's shard lags, D's record arrives first. Another
    // day paid meanwhile lags too, so the history's totals match the profile's: only the guards
    // tell the revocation.
    await revoke(env, tableName, dayKey(user, days[5] as string));
    await award(env, [streakDay(user, dayOfNumber(today - 20))]);
    await award(env, [streakDay(user, days[6] as string)]);
    const late = since(kept, await everyRecord(env, table.streamArn));
    const revocation = ofGuard(late, dayKey(user, days[5] as string));
    const lastDay = ofGuard(late, dayKey(user, days[6] as string));
    expect(revocation.map((record) => record.eventName)).toEqual(["MODIFY"]);
    await deliver(env, lastDay);
    expect(await achievementsOf(env, tableName, user)).not.toHaveProperty("streak-7");
    // The lagging shard catches up: still no run of seven, and the kept days are right.
    await deliver(env, revocation);
    expect(await achievementsOf(env, tableName, user)).not.toHaveProperty("streak-7");
    expect(await keptDays(env, tableName, user)).toEqual([...days.slice(0, 5), days[6]]);
    // And the converse order of the two, and the other day: the same.
    await deliver(env, [...revocation, ...lastDay]);
    await deliver(env, ofGuard(late, dayKey(user, dayOfNumber(today - 20))));
    expect(await achievementsOf(env, tableName, user)).not.toHaveProperty("streak-7");
    expect(await achievementsOf(env, tableName, user)).not.toHaveProperty("streak-7");
    expect(await rebuild(env, tableName, user)).toMatchObject({
      progress: { daysKept: 0, daysUnkept: 0, achieved: 0, failed: 0 },
    });
  });

  it("an award still on its way through another shard: nothing is decided until the history holds it, then the crossing is its own", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const user = `way-${randomUUID().slice(0, 6)}`;
    for (let i = 1; i <= 11; i++) await award(env, [completed(user, `a${i}`)]);
    const records = await everyRecord(env, table.streamArn);
    const tenth = ofGuard(records, articleKey(user, "a10"));
    // Everything but the tenth: the eleventh would look like the crossing, but the profile says 11.
    await deliver(
      env,
      records.filter((record) => !tenth.includes(record)),
    );
    expect(await achievementsOf(env, tableName, user)).not.toHaveProperty("articles-10");
    await deliver(env, tenth);
    const crossing = await guardOf(env, tableName, articleKey(user, "a10"));
    expect((await achievementsOf(env, tableName, user))["articles-10"]).toEqual({
      earnedAt: crossing.awardedAt,
      grantId: crossing.grantId,
    });
  });

  it("backfill racing the writer earns what the timeline earns, once; a second run changes nothing; a day revoked during the run is not kept", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const dynamo = createDynamoClient(env);
    const user = `race-${randomUUID().slice(0, 6)}`;
    const days = Array.from({ length: 8 }, (_, i) => dayOfNumber(today - 7 + i));
    for (const day of days.slice(0, 7)) await award(env, [streakDay(user, day)]);
    const first = await everyRecord(env, table.streamArn);
    // The writer has the first six; the seventh arrives while the backfill runs.
    const seventh = ofGuard(first, dayKey(user, days[6] as string));
    await deliver(
      env,
      first.filter((record) => !seventh.includes(record)),
    );
    const [report] = await Promise.all([
      repairProgress(dynamo, { tableName, userId: user, counts: true, dryRun: false }),
      deliver(env, seventh),
    ]);
    expect(report.totals.failed).toBe(0);
    const crossing = await guardOf(env, tableName, dayKey(user, days[6] as string));
    const held = await achievementsOf(env, tableName, user);
    expect(held["streak-7"]).toEqual({ earnedAt: crossing.awardedAt, grantId: crossing.grantId });
    expect(await keptDays(env, tableName, user)).toEqual(days.slice(0, 7));
    const again = await repairProgress(dynamo, { tableName, userId: user, counts: true, dryRun: false });
    expect(again.readers).toEqual([
      { userId: user, daysKept: 0, daysUnkept: 0, achieved: [], earned: [], counts: "right" },
    ]);

    // A day paid, and revoked while the backfill runs: between its read and its ADD of the day.
    await award(env, [streakDay(user, days[7] as string)]);
    const paid = await everyRecord(env, table.streamArn);
    // The writer is behind: the eighth day's item is written (so the backfill sees it), its day not yet kept.
    const eighth = ofGuard(paid, dayKey(user, days[7] as string));
    const deps = createDynamoClient(env);
    await deps.send(
      new PutCommand(
        historyPutOf(
          historyItemOf((await guardOf(env, tableName, dayKey(user, days[7] as string))).item as never, {
            historyDays: 400,
          }),
          tableName,
        ),
      ),
    );
    expect(eighth).toHaveLength(1);
    let interleaved = false;
    const racing = {
      send: async (command: { input: { UpdateExpression?: string } }) => {
        if (
          !interleaved &&
          command instanceof UpdateCommand &&
          command.input.UpdateExpression?.startsWith("ADD #days")
        ) {
          interleaved = true;
          // The live writer meets the revocation first, and applies it.
          await revoke(env, tableName, dayKey(user, days[7] as string));
          await deliver(env, since(first, await everyRecord(env, table.streamArn)));
        }
        return deps.send(command as never);
      },
    } as unknown as typeof dynamo;
    const during = await repairProgress(racing, { tableName, userId: user, counts: true, dryRun: false });
    expect(interleaved).toBe(true);
    expect(during.totals.failed).toBe(0);
    expect(await keptDays(env, tableName, user)).toEqual(days.slice(0, 7));
    expect(await rebuild(env, tableName, user)).toMatchObject({
      progress: { daysKept: 0, daysUnkept: 0, achieved: 0, failed: 0 },
    });
    expect(await achievementsOf(env, tableName, user)).toEqual(held);
  });

  it("credits no award the cap cut to 0, and counts never go below the truth", async ({ stack }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const dynamo = createDynamoClient(env);
    const user = `cap-${randomUUID().slice(0, 6)}`;
    const capped = { ...env, REWARDS_DAILY_XP_CAP: "100" };
    // One transaction: 100 XP paid by five articles, then the sixth, cut to 0 by the cap.
    await award(
      capped,
      Array.from({ length: 6 }, (_, i) => completed(user, `c${i + 1}`)),
    );
    await deliver(env, await everyRecord(env, table.streamArn));
    const fifth = await guardOf(env, tableName, articleKey(user, "c5"));
    const sixth = await guardOf(env, tableName, articleKey(user, "c6"));
    expect(sixth.item).toMatchObject({ amount: 0, requested: 20, counted: true, seq: 5 });
    expect((await achievementsOf(env, tableName, user))["level-2"]).toEqual({
      earnedAt: fifth.awardedAt,
      grantId: fifth.grantId,
    });

    // An award paid before counts were kept: its guard does not say it was counted.
    const old = `old-${randomUUID().slice(0, 6)}`;
    const intentKey = articleKey(old, "x");
    const awardedAt = new Date(Date.now() - 3_600_000).toISOString();
    await dynamo.send(
      new PutCommand({ TableName: tableName, Item: { ...profileKey(old), xp: 20, awards: 1 } }),
    );
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...guardKey(intentKey),
          userId: old,
          type: "article.completed",
          amount: 20,
          eventId: "e",
          awardedAt,
        },
      }),
    );
    await revoke(env, tableName, intentKey);
    const { Item: profile } = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: profileKey(old), ConsistentRead: true }),
    );
    expect(profile).toEqual({
      ...profileKey(old),
      xp: 0,
      awards: 0,
      revoked: 1,
      updatedAt: expect.any(String),
    });
    // Its next award counts 1, and backfill calls that right.
    await award(env, [completed(old, "y")]);
    await deliver(env, await everyRecord(env, table.streamArn));
    const { Item: after } = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: profileKey(old), ConsistentRead: true }),
    );
    expect(after?.["count:article.completed"]).toBe(1);
    const backfill = await repairProgress(dynamo, { tableName, userId: old, counts: true, dryRun: false });
    expect(backfill.readers[0]?.counts).toBe("right");
  });

  it("history rebuild --dry-run says exactly what its progress repair then does, on the history as the rebuild leaves it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { env, tableName } = table;
    const user = `dry-${randomUUID().slice(0, 6)}`;
    // Paid, and never seen by the history's writer (a batch given up and past the stream's 24 h).
    const week = Array.from({ length: 7 }, (_, i) => dayOfNumber(today - 6 + i));
    for (const day of week) await award(env, [streakDay(user, day)]);
    await award(env, [completed(user, "a")]);
    const rebuild = (...args: string[]) =>
      runCli(["history", "rebuild", "--user", user, "--json", ...args], { ...env, TABLE_NAME: tableName });
    const dry = await rebuild("--dry-run");
    expect([dry.code, dry.stderr]).toEqual([0, ""]);
    const preview = JSON.parse(dry.stdout).progress;
    expect(preview.totals).toMatchObject({ readers: 1, daysKept: 7, achieved: 2, waiting: 0, failed: 0 });
    expect(await keptDays(env, tableName, user)).toEqual([]);
    expect(await achievementsOf(env, tableName, user)).toEqual({});
    const run = await rebuild();
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect({ ...JSON.parse(run.stdout).progress, dryRun: true }).toEqual(preview);
    expect(await keptDays(env, tableName, user)).toEqual(week);
    const seventh = await guardOf(env, tableName, dayKey(user, week[6] as string));
    expect((await achievementsOf(env, tableName, user))["streak-7"]).toEqual({
      earnedAt: seventh.awardedAt,
      grantId: seventh.grantId,
    });
  });
});
