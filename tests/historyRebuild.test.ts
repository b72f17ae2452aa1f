import { randomUUID } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, isoWeekOf } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { revokeIntent } from "@rewards/ops";
import { completed, runCli, stackTest } from "@rewards/testing";
import { describe, expect, onTestFinished } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

// `rewards history rebuild` (docs/operations.md, "Rebuilding the history") against a table of
// each test's own, through the real CLI, with a proxy in front of DynamoDB that records every
// operation the command sends: "writes nothing" is counted, not assumed.

const it = stackTest();
const DAYS = 30;

async function historyOf(env: Record<string, string>, tableName: string, userId: string) {
  const answer = await createDynamoClient(env).send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
      ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":award": "AWARD#" },
      ConsistentRead: true,
    }),
  );
  return answer.Items ?? [];
}

const byIntent = (items: Record<string, unknown>[], intentKey: string) => {
  const item = items.find((i) => i.intentKey === intentKey);
  if (!item) throw new Error(`no history item for ${intentKey}`);
  return item;
};

/**
 * A table with two users' awards (u: a, revoked, and b; v: c and d) and the history the
 * writer wrote for them; the CLI's environment goes through a proxy that records operations.
 */
async function awardedTable(stack: Parameters<typeof ownTable>[0]) {
  const table = await ownTable(stack);
  const env: Record<string, string> = { ...table.env, REWARDS_HISTORY_DAYS: String(DAYS) };
  const suffix = randomUUID().slice(0, 6);
  const [u, v] = [`r-${suffix}`, `s-${suffix}`];
  const key = (user: string, slug: string) => `${user}#${slug}#article.completed`;
  await award(env, [completed(u, "a"), completed(u, "b"), completed(v, "c"), completed(v, "d")]);
  const dynamo = createDynamoClient(env);
  expect(
    await revokeIntent(1, key(u, "a"), { dynamo, tableName: table.tableName, reason: "bot", dryRun: false }),
  ).toMatchObject({ verdict: "revoked" });
  await writeHistoryOfStream(env, table.streamArn);
  const operations: string[] = [];
  const proxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: [],
    seed: 1,
    observe: (operation) => operations.push(operation),
  });
  onTestFinished(() => proxy.stop());
  const cliEnv = { ...env, AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint };
  /** Runs `rewards history rebuild ARGS`; `operations` then holds what it sent DynamoDB. */
  const rebuild = async (args: string[]) => {
    operations.length = 0;
    return runCli(["history", "rebuild", ...args], cliEnv);
  };
  const history = (user: string) => historyOf(env, table.tableName, user);
  return { table, env, dynamo, u, v, key, rebuild, operations, history };
}

const writes = (operations: string[]) =>
  operations.filter((op) => !["Scan", "BatchGetItem", "GetItem", "Query", "DescribeTable"].includes(op));

const noChange = { written: [], corrected: [], keptRevoked: [], skipped: [], failed: [], expired: 0 };

describe("rewards history rebuild", () => {
  it("--user: a dry run writes nothing; the run restores a deleted and an edited item exactly as the writer wrote them; a second run changes nothing", async ({
    stack,
  }) => {
    const { table, dynamo, u, key, rebuild, operations, history } = await awardedTable(stack);
    const [aKey, bKey] = [key(u, "a"), key(u, "b")];
    const writers = await history(u);
    // What the writer wrote: a revoked, b not, both kept DAYS days.
    expect(writers.map((i) => [i.intentKey, i.xp, i.revokedReason])).toEqual(
      expect.arrayContaining([
        [aKey, 20, "bot"],
        [bKey, 20, undefined],
      ]),
    );
    for (const item of writers)
      expect(item.expiresAt).toBe(Math.floor(Date.parse(String(item.awardedAt)) / 1000) + DAYS * 86_400);

    // By hand: b's item deleted; a's with another xp and its revocation gone.
    const a = byIntent(writers, aKey);
    const b = byIntent(writers, bKey);
    await dynamo.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: b.pk, sk: b.sk } }));
    const { revokedAt: _at, revokedReason: _reason, ...unrevoked } = a;
    await dynamo.send(new PutCommand({ TableName: table.tableName, Item: { ...unrevoked, xp: 99 } }));
    const damaged = await history(u);
    expect(damaged).toEqual([{ ...unrevoked, xp: 99 }]);

    const report = (dryRun: boolean) => ({
      dryRun,
      interrupted: false,
      // u's partition and u's two guards, read once.
      read: { items: 7, complete: true },
      userId: u,
      historyDays: DAYS,
      totals: {
        guards: 2,
        users: 1,
        written: 1,
        corrected: 1,
        unchanged: 0,
        expired: 0,
        keptRevoked: 0,
        skipped: 0,
        failed: 0,
        unreadable: 0,
      },
      users: [
        {
          ...noChange,
          userId: u,
          written: [bKey],
          corrected: [{ intentKey: aKey, fields: ["revokedAt", "revokedReason", "xp"] }],
          unchanged: 0,
        },
      ],
      unreadable: [],
      progress: {
        dryRun,
        interrupted: false,
        counts: false,
        readers: [{ userId: u, daysKept: 0, daysUnkept: 0, achieved: [], earned: [], counts: "right" }],
        totals: { readers: 1, daysKept: 0, daysUnkept: 0, achieved: 0, countsSet: 0, waiting: 0, failed: 0 },
      },
      // The board's week is right (20: b's, a being revoked): a dry run compares it with the
      // history as the rebuild would leave it (a's 99 corrected), and says so.
      weeks: {
        dryRun,
        interrupted: false,
        readers: [{ userId: u, changed: [] }],
        totals: { readers: 1, weeksChanged: 0, failed: 0, skipped: 0 },
      },
    });

    const dry = await rebuild(["--user", u, "--dry-run", "--json"]);
    expect([dry.code, dry.stderr]).toEqual([0, ""]);
    expect(JSON.parse(dry.stdout)).toEqual(report(true));
    expect(writes(operations)).toEqual([]);
    expect(await history(u)).toEqual(damaged);

    const run = await rebuild(["--user", u, "--json"]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(run.stdout)).toEqual(report(false));
    expect(writes(operations)).toEqual(["PutItem", "PutItem"]);
    // Restored attribute for attribute: exactly what the writer wrote.
    expect(await history(u)).toEqual(writers);

    const again = await rebuild(["--user", u, "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      ...report(false),
      // b's item is back in u's partition.
      read: { items: 8, complete: true },
      totals: { ...report(false).totals, written: 0, corrected: 0, unchanged: 2 },
      users: [{ ...noChange, userId: u, unchanged: 2 }],
    });
    expect(writes(operations)).toEqual([]);
    expect(await history(u)).toEqual(writers);
  });

  it("--all covers every user; keeps a revocation the guard does not show; leaves an award past its retention; says it for people", async ({
    stack,
  }) => {
    const { table, dynamo, u, v, key, rebuild, operations, history } = await awardedTable(stack);
    const [writersU, writersV] = [await history(u), await history(v)];
    // u: b's item deleted. v: d's item deleted, c's revoked by hand (its guard is not).
    const b = byIntent(writersU, key(u, "b"));
    const c = byIntent(writersV, key(v, "c"));
    const d = byIntent(writersV, key(v, "d"));
    for (const item of [b, d])
      await dynamo.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: item.pk, sk: item.sk } }));
    const revokedC = { ...c, revokedAt: "2026-12-01T00:00:00.000Z", revokedReason: "by hand" };
    await dynamo.send(new PutCommand({ TableName: table.tableName, Item: revokedC }));
    // v: a guard awarded DAYS + 1 days ago, its history past its retention.
    const { Item: guardC } = await dynamo.send(
      new GetCommand({ TableName: table.tableName, Key: guardKey(key(v, "c")) }),
    );
    const longAgo = new Date(Date.now() - (DAYS + 1) * 86_400_000).toISOString();
    await dynamo.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...guardC, ...guardKey(key(v, "old")), awardedAt: longAgo, eventTime: longAgo },
      }),
    );

    const run = await rebuild(["--all", "--json"]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(run.stdout)).toEqual({
      dryRun: false,
      interrupted: false,
      // The whole table, once: 5 guards, and u's and v's profile, progress, week and history items.
      read: { items: 15, complete: true },
      userId: null,
      historyDays: DAYS,
      totals: {
        guards: 5,
        users: 2,
        written: 2,
        corrected: 0,
        unchanged: 2,
        expired: 1,
        keptRevoked: 1,
        skipped: 0,
        failed: 0,
        unreadable: 0,
      },
      users: [
        { ...noChange, userId: u, written: [key(u, "b")], unchanged: 1 },
        {
          ...noChange,
          userId: v,
          written: [key(v, "d")],
          unchanged: 1,
          keptRevoked: [key(v, "c")],
          expired: 1,
        },
      ],
      unreadable: [],
      progress: {
        dryRun: false,
        interrupted: false,
        counts: false,
        readers: [u, v].map((userId) => ({
          userId,
          daysKept: 0,
          daysUnkept: 0,
          achieved: [],
          earned: [],
          counts: "right",
        })),
        totals: { readers: 2, daysKept: 0, daysUnkept: 0, achieved: 0, countsSet: 0, waiting: 0, failed: 0 },
      },
      // v's week counted c, which the history now holds revoked: 40 → 20, one put.
      weeks: {
        dryRun: false,
        interrupted: false,
        readers: [
          { userId: u, changed: [] },
          { userId: v, changed: [{ week: isoWeekOf(Date.now()), from: 40, to: 20 }] },
        ],
        totals: { readers: 2, weeksChanged: 1, failed: 0, skipped: 0 },
      },
    });
    expect(writes(operations)).toEqual(["PutItem", "PutItem", "PutItem"]);
    expect(await history(u)).toEqual(writersU);
    // c stays revoked; nothing is written for the old award.
    expect(await history(v)).toEqual(
      writersV.map((item) => (item.intentKey === c.intentKey ? revokedC : item)),
    );

    // For people: a row per item touched, then the totals.
    await dynamo.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: d.pk, sk: d.sk } }));
    const text = await rebuild(["--all", "--dry-run"]);
    expect([text.code, text.stderr]).toEqual([0, ""]);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("dry run: every user: 5 guards on the table, 2 users; history retention 30 days");
    expect(lines.filter((line) => line.startsWith("│"))).toEqual([
      expect.stringMatching(/^│ user +│ change +│ intentKey +│ detail +│$/),
      expect.stringMatching(new RegExp(`^│ ${v} +│ would write +│ ${key(v, "d")} +│ +│$`)),
      expect.stringMatching(
        new RegExp(
          `^│ ${v} +│ kept revoked +│ ${key(v, "c")} +│ revoked in the history, not on its guard +│$`,
        ),
      ),
    ]);
    // v's week, with d as the rebuild would write it again, is right: nothing said of the weeks.
    expect(lines.slice(-2)).toEqual([
      "1 item would be written (1 missing, 0 corrected; 3 unchanged, 1 past their retention); nothing written",
      '1 item revoked in the history but not on its guard: kept revoked (docs/operations.md, "Rebuilding the history")',
    ]);
    expect(writes(operations)).toEqual([]);

    // A guard the writer cannot read either (no type name at all): named, exit 1.
    const odd = guardKey(key(v, "odd"));
    await dynamo.send(
      new PutCommand({ TableName: table.tableName, Item: { ...guardC, ...odd, type: "Article Liked" } }),
    );
    const unreadable = await rebuild(["--user", v, "--json"]);
    expect(unreadable.code).toBe(1);
    expect(JSON.parse(unreadable.stdout)).toMatchObject({
      totals: { guards: 3, written: 1, unreadable: 1 },
      unreadable: [
        {
          pk: odd.pk,
          reason: "type: must be an event type name (dotted lowercase words)",
        },
      ],
    });
  });

  it("usage: --user or --all, exactly one (exit 2, one line, before any variable is read)", async () => {
    // No TABLE_NAME: a command that went on would say that it is required.
    const neither = await runCli(["history", "rebuild"], {});
    expect([neither.code, neither.stdout, neither.stderr]).toEqual([
      2,
      "",
      "rewards: whose history: --user <userId>, or --all\n",
    ]);
    const both = await runCli(["history", "rebuild", "--user", "u", "--all"], {});
    expect([both.code, both.stdout, both.stderr]).toEqual([
      2,
      "",
      "rewards: --user and --all: one or the other\n",
    ]);
    const blank = await runCli(["history", "rebuild", "--user", ""], {});
    expect([blank.code, blank.stdout, blank.stderr]).toEqual([
      2,
      "",
      'rewards: --user: must be 1 to 256 characters: ""\n',
    ]);
  });
});
