import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  boardShardOf,
  dayNumberOf,
  dayOfNumber,
  isoWeekDays,
  isoWeekOf,
  isoWeekPlus,
  profileKey,
} from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient, createSqsClient } from "@rewards/core/aws";
import type { Provisioned } from "@rewards/local";
import { startPoller } from "@rewards/local";
import { queueCounts, waitForDrain } from "@rewards/ops";
import { createReader } from "@rewards/reader";
import { completed, eventBody, HANG_GUARD_MS, runCli, signup, stackTest } from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import pino from "pino";
import { beforeAll, describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

const it = stackTest({ visibilityTimeoutSeconds: 2 });
let sqs: SQSClient;
let dynamo: DynamoDBDocumentClient;
let dir: string;
let env: Record<string, string>;
let queues: Provisioned;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rewards-cli-"));
});

it.beforeEach(({ env: testEnv, queues: testQueues }) => {
  env = testEnv;
  queues = testQueues;
  sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" });
  dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
});

const cli = (args: string[], stdin?: string) => runCli(args, env, stdin);

/**
 * What `rewards env` prints last for the stages here: the names `rewards status` reads unset
 * (these outputs predate them; packages/cli/test/env.test.ts has a stage with them), the local
 * stack's variables unset, and its credentials when the shell holds them (env.test.ts sources it).
 */
const LOCAL_UNSETS =
  "unset ANNOUNCER_FUNCTION_NAME\nunset HISTORY_FUNCTION_NAME\nunset REWARDS_ALARM_NAMES\n" +
  "unset AWS_ENDPOINT_URL_SQS\nunset AWS_ENDPOINT_URL_DYNAMODB\nunset AWS_ENDPOINT_URL_DYNAMODB_STREAMS\n" +
  "unset AWS_ENDPOINT_URL_EVENTBRIDGE\nunset GRANTS_QUEUE_URL\nunset CONSUMER_QUEUE_URL\nunset SITE_URL\n" +
  "unset ANNOUNCER_CHECKPOINT_FILE\nunset HISTORY_CHECKPOINT_FILE\n" +
  `if [ "\${AWS_ACCESS_KEY_ID-}" = 'test' ] && [ "\${AWS_SECRET_ACCESS_KEY-}" = 'test' ]; then unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; fi\n`;

/** A deployed stage's outputs with only what `rewards env` requires. */
const MINIMAL_STAGE = {
  region: "eu-west-1",
  queueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/q",
  dlqUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/dlq",
  tableName: "t",
};

async function processQueue() {
  const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
  const poller = await startPoller({
    sqs: createSqsClient({ ...env, AWS_REGION: "us-east-1" }, { requestTimeoutMs: 10_000 }),
    queueUrl: queues.queueUrl,
    logger: pino({ level: "silent" }),
    waitTimeSeconds: 1,
    timeoutMs: 1500,
    handler: async (event, context) => (await processBatch(deps, event, context)).response,
  });
  expect(await waitForDrain(sqs, queues.queueUrl, HANG_GUARD_MS)).toBe(true);
  await poller.stop();
}

describe("rewards publish", () => {
  it("reports bad lines by number, still sends the good ones, and exits 1", async () => {
    const file = join(dir, "events.ndjson");
    const lines = [
      completed("cli-pub", "a"),
      "{not json",
      "",
      eventBody("signup.completed", { userId: "" }),
      signup("cli-pub"),
    ];
    await writeFile(file, `${lines.join("\n")}\n`);
    const run = await cli(["publish", file, "--json"]);
    expect(run.code).toBe(1);
    const output = JSON.parse(run.stdout) as {
      published: number;
      failed: number;
      results: Array<Record<string, unknown>>;
    };
    expect(output.published).toBe(2);
    expect(output.failed).toBe(2);
    expect(output.results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, false],
      [4, false],
      [5, true],
    ]);
    expect(output.results[1]?.error).toMatch(/^not JSON/);
    expect(output.results[2]?.error).toMatch(/^data\.userId: /);
    expect((await queueCounts(sqs, queues.queueUrl)).visible).toBe(2);
  });

  it("reads standard input and exits 0 when every line is sent", async () => {
    const run = await cli(["publish", "-"], `${completed("cli-stdin", "a")}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^line 1: ok \S+\n1 published, 0 failed\n$/);
  });

  it("a missing file is a one-line error, exit 1", async () => {
    const run = await cli(["publish", join(dir, "missing.ndjson")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^rewards: cannot read .*missing\.ndjson: ENOENT/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("rewards load, worker handler, verify", () => {
  it(
    "verify exits 0 on exact totals and 1 after a profile is tampered with",
    async () => {
      const expectFile = join(dir, "expect.json");
      const load = await cli([
        "load",
        "--events",
        "300",
        "--users",
        "15",
        "--seed",
        "42",
        "--expect",
        expectFile,
        "--json",
      ]);
      expect(load.code).toBe(0);
      const summary = JSON.parse(load.stdout) as { sent: number; failed: number; invalid: number };
      expect(summary).toMatchObject({ sent: 300, failed: 0 });
      const expectation = JSON.parse(await readFile(expectFile, "utf8")) as { users: Record<string, number> };
      expect(Object.keys(expectation.users).length).toBeGreaterThan(0);

      await processQueue();
      const good = await cli(["verify", "--expect", expectFile]);
      expect(good.code).toBe(0);
      expect(good.stdout).toMatch(/all match/);

      const [victim] = Object.keys(expectation.users);
      await dynamo.send(
        new UpdateCommand({
          TableName: queues.tableName,
          Key: profileKey(victim as string),
          UpdateExpression: "ADD xp :one",
          ExpressionAttributeValues: { ":one": 1 },
        }),
      );
      const bad = await cli(["verify", "--expect", expectFile, "--json"]);
      expect(bad.code).toBe(1);
      const report = JSON.parse(bad.stdout) as {
        ok: boolean;
        mismatches: Array<{ userId: string; expected: number; actual: number }>;
      };
      expect(report.ok).toBe(false);
      expect(report.mismatches).toEqual([
        {
          userId: victim,
          expected: expectation.users[victim as string],
          actual: (expectation.users[victim as string] ?? 0) + 1,
        },
      ]);
    },
    HANG_GUARD_MS,
  );
});

describe("rewards user, guard and dlq", () => {
  it(
    "shows a profile, a guard, and operates the DLQ",
    async () => {
      await cli(["publish", "-"], `${completed("cli-look", "idempotent-writes")}\n${signup("cli-look")}\n`);
      await sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: "{poison" }));
      await processQueue();

      const user = await cli(["user", "cli-look", "--json"]);
      expect(user.code).toBe(0);
      const shown = JSON.parse(user.stdout);
      expect(shown.profile).toMatchObject({ userId: "cli-look", xp: 120, awards: 2, level: { level: 2 } });
      // No history writer runs here (it is the stream's: docs/history.md): the profile has the awards, the history not yet.
      expect(shown.history).toEqual({ awards: [] });
      expect(shown.historyLag).toEqual({
        kind: "awardsMissing",
        missing: 2,
        profileAwards: 2,
        historyAwards: 0,
      });

      const guard = await cli([
        "guard",
        "article.completed",
        "userId=cli-look",
        "articleSlug=idempotent-writes",
        "--json",
      ]);
      expect(guard.code).toBe(0);
      expect(JSON.parse(guard.stdout)).toMatchObject({
        intentKey: "cli-look#idempotent-writes#article.completed",
        userId: "cli-look",
        amount: 20,
        eventId: expect.stringMatching(/^evt-/),
      });

      const stats = await cli(["dlq", "stats", "--json"]);
      expect(JSON.parse(stats.stdout)).toEqual({
        visible: 1,
        inFlight: 0,
        delayed: 0,
        sampled: 1,
        distinct: 1,
        byError: { invalid_json: 1 },
        byType: { "(unknown)": 1 },
        byVerdict: { pay: 0, paid: 0, revoked: 0, stale: 0, invalid: 1 },
      });
      const peek = await cli(["dlq", "peek", "--json"]);
      expect(JSON.parse(peek.stdout)).toMatchObject([{ error: "invalid_json", body: "{poison" }]);
      expect(JSON.parse((await cli(["dlq", "stats", "--json"])).stdout).visible).toBe(1); // peek consumed nothing

      const replay = await cli(["dlq", "replay", "--json"]);
      expect(JSON.parse(replay.stdout)).toEqual({
        dryRun: false,
        replayed: 1,
        copiesDeleted: 0,
        failed: 0,
        failures: [],
        notMatching: 0,
        parkedDuringReplay: 0,
        inFlightAtStart: 0,
        skippedPaid: 0,
        skipped: [],
        overMax: 0,
        leftInDlq: 0,
      });
      expect((await queueCounts(sqs, queues.queueUrl)).visible).toBe(1);
      await processQueue();
      expect((await queueCounts(sqs, queues.dlqUrl)).visible).toBe(1); // parked again, not lost

      expect((await cli(["dlq", "purge"])).code).toBe(2);
      expect((await cli(["dlq", "purge", "--yes"])).code).toBe(0);
      expect((await queueCounts(sqs, queues.dlqUrl)).visible).toBe(0);
    },
    HANG_GUARD_MS,
  );

  it("shows the streak in the zone asked for, the counts and the achievements, newest first; a bad zone exits 2", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = "cli-progress";
    const run = (args: string[]) => runCli(["user", user, ...args], table.env);
    // Days counted from today in UTC: the last kept day is today, so the streak is current in every zone.
    const today = dayNumberOf(new Date().toISOString().slice(0, 10));
    const day = (n: number) => dayOfNumber(today + n);
    const streakDay = (n: number) => eventBody("streak.day", { userId: user, day: day(n) });
    /** Each batch through the worker, then the stream so far through the history's writer (kept days, achievements). */
    const awarded = async (bodies: string[]) => {
      await award(table.env, bodies);
      await writeHistoryOfStream(table.env, table.streamArn);
    };
    // today−9 … today−7, today−5 … today−3, today−1 and today; then today−6, late, joins the first
    // two runs: 7 (streak-7), and 2 now. 9 days: 90 XP.
    await awarded([-9, -8, -7, -5, -4, -3, -1, 0].map(streakDay));
    await awarded([streakDay(-6)]);
    await awarded([completed(user, "a")]); // 90 + 20 XP: the first article and level 2, by one award
    await awarded([eventBody("article.shared", { userId: user, articleSlug: "a", channel: "email" })]);

    const json = await run(["--time-zone", "Pacific/Kiritimati", "--json"]);
    expect(json).toMatchObject({ code: 0, stderr: "" });
    const shown = JSON.parse(json.stdout);
    expect(shown.profile).toEqual({
      userId: user,
      xp: 115,
      awards: 11,
      counts: { "article.completed": 1, "article.shared": 1, "streak.day": 9, "signup.completed": 0 },
      streak: { current: 2, longest: 7, lastDay: day(0) },
      level: { level: 2, xpFloor: 100, xpNext: 250 },
      today: { day: expect.any(String), xp: expect.any(Number) },
      // Every award's event is now: all of it this week's, and the table's only reader ranks first.
      week: { week: isoWeekOf(Date.now()), xp: 115, rank: 1 },
      updatedAt: expect.any(String),
    });
    // Each credited to the award that crossed it; one award's in id order.
    type Shown = { type: string; id: string; awardedAt: string; data: Record<string, unknown> };
    const awards: Shown[] = shown.history.awards;
    expect(awards).toHaveLength(10); // --awards' default
    const all: Shown[] = JSON.parse((await run(["--awards", "100", "--json"])).stdout).history.awards;
    const by = (type: string, streakOn?: string) => {
      const found = all.filter((a) => a.type === type && (streakOn === undefined || a.data.day === streakOn));
      expect(found).toHaveLength(1);
      const { id, awardedAt } = found[0] as Shown;
      return { earnedAt: awardedAt, grantId: id };
    };
    const achievements = [
      { id: "first-share", title: "First share", ...by("article.shared") },
      { id: "first-article", title: "First article", ...by("article.completed") },
      { id: "level-2", title: "Level 2", ...by("article.completed") },
      { id: "streak-7", title: "A week in a row", ...by("streak.day", day(-6)) },
    ];
    expect(shown.achievements).toEqual(achievements);
    // --awards 0: no history, the rest as it was.
    expect(JSON.parse((await run(["--awards", "0", "--json"])).stdout)).toEqual({
      profile: { ...shown.profile, today: expect.any(Object) },
      achievements,
    });

    const text = await run(["--time-zone", "Pacific/Kiritimati"]);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    const lines = text.stdout.split("\n");
    const row = (pattern: RegExp) => {
      const index = lines.findIndex((line) => pattern.test(line));
      expect(index, String(pattern)).toBeGreaterThan(-1);
      return index;
    };
    row(new RegExp(`^│ streak │ current 2 \\(in Pacific/Kiritimati\\), longest 7, last day ${day(0)} +│$`));
    row(/^│ counts │ article\.completed 1, article\.shared 1, streak\.day 9, signup\.completed 0 │$/);
    const heading = row(/^4 achievements, newest first:$/);
    const rows = achievements.map(({ id, title, earnedAt }) =>
      row(new RegExp(`^│ ${id} +│ ${title} +│ ${earnedAt.replaceAll(".", "\\.")} │$`)),
    );
    expect(rows).toEqual([heading + 4, heading + 6, heading + 8, heading + 10]);
    // The lines that were there before stay as they were.
    row(/^│ xp +│ 115 +│$/);
    row(new RegExp(`^│ week +│ ${isoWeekOf(Date.now())}: 115 XP, rank #1 +│$`));
    row(/^last 10 awards, newest first:$/);
    // Without --time-zone, UTC.
    expect((await run([])).stdout).toMatch(/│ streak │ current 2 \(in UTC\), longest 7, last day /);

    // A zone the reader refuses: a usage error naming the option, nothing printed.
    expect(await run(["--time-zone", "Mars/Olympus"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'rewards: --time-zone: an IANA time zone such as "Europe/Paris" or "UTC", not "Mars/Olympus"\n',
    });
    expect((await run(["--time-zone", "", "--json"])).code).toBe(2);
  });

  it("an unknown user is a new reader (exit 0); a user id the events refuse and bad guard fields exit 2", async () => {
    const user = await cli(["user", "nobody", "--json"]);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toEqual({
      profile: {
        userId: "nobody",
        xp: 0,
        awards: 0,
        counts: { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
        streak: { current: 0, longest: 0 },
        level: { level: 1, xpFloor: 0, xpNext: 100 },
        today: { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), xp: 0 },
        week: { week: isoWeekOf(Date.now()), xp: 0 },
      },
      history: { awards: [] },
      achievements: [],
      // The profile's awards against the history's standing ones (none and none).
      historyLag: { kind: "inStep", profileAwards: 0, historyAwards: 0 },
    });
    const text = (await cli(["user", "nobody"])).stdout;
    expect(text).toMatch(/│ streak │ none kept +│\n/);
    expect(text).toMatch(new RegExp(`│ week +│ ${isoWeekOf(Date.now())}: 0 XP, no rank +│\n`));
    expect(text).toContain(
      "│ counts │ article.completed 0, article.shared 0, streak.day 0, signup.completed 0 │\n",
    );
    expect(text).toContain(
      "└────────┴─────────────────────────────────────────────────────────────────────────┘\nno achievements yet\n",
    );
    const tooLong = await cli(["user", "u".repeat(257)]);
    expect(tooLong).toMatchObject({ code: 2, stdout: "" });
    // Its first 64 characters, no more (core's quoteInput).
    expect(tooLong.stderr).toBe(
      `rewards: userId: must be 1 to 256 characters ("${"u".repeat(64)}…" (257 characters))\n`,
    );
    const guard = await cli(["guard", "article.completed", "userId=u"]);
    expect(guard.code).toBe(2);
    expect(guard.stderr).toMatch(/^rewards: invalid fields for article.completed: articleSlug: /);
    expect((await cli(["guard", "article.liked", "userId=u"])).code).toBe(2);
  });
});

describe("rewards board, and the week in rewards user", () => {
  it("prints the week's board as the reader ranks it, pages joined by the printed command, and the week asked for", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    // 64 shards, the writer's and the command's: anna's, bert's and cleo's are past the default 32,
    // so a command that did not read REWARDS_BOARD_SHARDS would leave them off.
    const env: Record<string, string> = { ...table.env, REWARDS_BOARD_SHARDS: "64" };
    const [a, b, c, d] = ["cli-board-anna", "cli-board-bert", "cli-board-cleo", "cli-board-dave"] as const;
    expect([a, b, c, d].map((user) => boardShardOf(user, 64))).toEqual([40, 43, 50, 22]);
    const thisWeek = isoWeekOf(Date.now());
    const lastWeek = isoWeekPlus(thisWeek, -1);
    const shared = (user: string, slug: string) =>
      eventBody("article.shared", { userId: user, articleSlug: slug, channel: "x" });
    // Each batch sent twice: a copy is no second award.
    const twice = (bodies: string[]) => award(env, [...bodies, ...bodies]);
    await twice([completed(a, "1"), completed(a, "2"), completed(a, "3")]); // 60
    await twice([completed(b, "1"), completed(b, "2"), shared(b, "1"), shared(b, "2")]); // 50
    await twice([
      completed(c, "1"),
      shared(c, "1"),
      shared(c, "2"),
      shared(c, "3"),
      shared(c, "4"),
      shared(c, "5"),
      shared(c, "6"),
    ]); // 50
    await twice([shared(d, "1")]); // 5
    // Earned last week (its event's time), paid now: last week's board only.
    const lastWeekTime = new Date(Date.now() - 7 * 86_400_000).toISOString();
    await award(env, [
      eventBody("article.completed", { userId: d, articleSlug: "old" }, { time: lastWeekTime }),
    ]);
    await writeHistoryOfStream(env, table.streamArn);
    const reader = createReader({
      tableName: table.tableName,
      client: createDynamoBaseClient(env),
      boardShards: 64,
    });
    const expected = [
      { rank: 1, userId: a, xp: 60 },
      { rank: 2, userId: b, xp: 50 },
      { rank: 2, userId: c, xp: 50 },
      { rank: 4, userId: d, xp: 5 },
    ];
    const run = (args: string[], over: Record<string, string> = env) => runCli(["board", ...args], over);

    const json = await run(["--json"]);
    expect(json).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(json.stdout)).toEqual({ week: thisWeek, entries: expected });
    expect(JSON.parse(json.stdout)).toEqual(await reader.board());
    expect(JSON.parse((await run(["--week", lastWeek, "--json"])).stdout)).toEqual({
      week: lastWeek,
      entries: [{ rank: 1, userId: d, xp: 20 }],
    });

    /** A page's rows (rank, user, XP) and the command its last line gives for the next page. */
    const shown = (stdout: string) => ({
      rows: [...stdout.matchAll(/^│ (\d+) +│ (\S+) +│ (\d+) +│$/gm)].map(([, rank, userId, xp]) => ({
        rank: Number(rank),
        userId,
        xp: Number(xp),
      })),
      next: /^next page: rewards (board .+)$/m.exec(stdout)?.[1]?.split(" "),
    });
    const { first, last } = isoWeekDays(thisWeek);
    const whole = await run([]);
    expect(whole).toMatchObject({ code: 0, stderr: "" });
    expect(whole.stdout.split("\n")[0]).toBe(`week ${thisWeek} (${first} to ${last}, UTC)`);
    expect(whole.stdout.split("\n")[2]).toMatch(/^│ rank │ user +│ XP │$/);
    expect(shown(whole.stdout)).toEqual({ rows: expected, next: undefined });

    // Pages of 3, the tie split across them keeping its rank; the printed command reads the next one.
    const page1 = await run(["--limit", "3"]);
    const firstPage = shown(page1.stdout);
    expect(firstPage.rows).toEqual(expected.slice(0, 3));
    const cursor = JSON.parse((await run(["--limit", "3", "--json"])).stdout).cursor;
    expect(firstPage.next).toEqual(["board", "--week", thisWeek, "--limit", "3", "--cursor", cursor]);
    const page2 = await runCli(firstPage.next as string[], env);
    expect(shown(page2.stdout)).toEqual({ rows: expected.slice(3), next: undefined });
    // Pages of 1 by --json's cursor: the whole, in order.
    const byOne = [];
    let next: string | undefined;
    do {
      const page = JSON.parse(
        (await run(["--limit", "1", "--json", ...(next ? ["--cursor", next] : [])])).stdout,
      );
      byOne.push(...page.entries);
      next = page.cursor;
    } while (next);
    expect(byOne).toEqual(expected);
    // The cursor read with the default page of 20: the rest.
    expect(shown((await run(["--week", thisWeek, "--cursor", cursor])).stdout).rows).toEqual(
      expected.slice(3),
    );

    // A week no one earned in.
    const quiet = isoWeekPlus(thisWeek, -5);
    const quietDays = isoWeekDays(quiet);
    expect(await run(["--week", quiet])).toEqual({
      code: 0,
      stdout: `week ${quiet} (${quietDays.first} to ${quietDays.last}, UTC): no one on the board\n`,
      stderr: "",
    });
    // Without the stage's REWARDS_BOARD_SHARDS, the reader's 32 shards miss anna, bert and cleo.
    const { REWARDS_BOARD_SHARDS: _, ...unset } = env;
    expect(JSON.parse((await run(["--json"], unset)).stdout).entries).toEqual([
      { rank: 1, userId: d, xp: 5 },
    ]);

    // rewards user: this week's XP and rank, the same as the reader's profile.
    const user = await runCli(["user", c, "--json"], env);
    expect(JSON.parse(user.stdout).profile).toEqual(await reader.profile(c));
    expect(JSON.parse(user.stdout).profile.week).toEqual({ week: thisWeek, xp: 50, rank: 2 });
    expect((await runCli(["user", c], env)).stdout).toMatch(
      new RegExp(`^│ week +│ ${thisWeek}: 50 XP, rank #2 +│$`, "m"),
    );
    expect((await runCli(["user", d], env)).stdout).toMatch(
      new RegExp(`^│ week +│ ${thisWeek}: 5 XP, rank #4 +│$`, "m"),
    );
    expect((await runCli(["user", "cli-board-nobody"], env)).stdout).toMatch(
      new RegExp(`^│ week +│ ${thisWeek}: 0 XP, no rank +│$`, "m"),
    );
  });

  it("a bad --week, --limit or --cursor is a usage error naming it (exit 2); a bad REWARDS_BOARD_SHARDS is named (exit 1)", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const run = (args: string[], over: Record<string, string> = {}) =>
      runCli(["board", ...args], { ...table.env, ...over });
    const usage = (stderr: string) => ({ code: 2, stdout: "", stderr });
    expect(await run(["--week", "2025-W53"])).toEqual(
      usage(
        'rewards: --week: an ISO week such as "2026-W49" (a year, "-W", a week of that year), not "2025-W53"\n',
      ),
    );
    expect(await run(["--week", "2026-49"])).toEqual(
      usage(
        'rewards: --week: an ISO week such as "2026-W49" (a year, "-W", a week of that year), not "2026-49"\n',
      ),
    );
    for (const limit of ["0", "101", "x"])
      expect(await run(["--limit", limit]), limit).toEqual(
        usage(
          `rewards: option '--limit <n>' argument '${limit}' is invalid. expected a whole number from 1 to 100\n(run \`rewards board --help\` for usage)\n`,
        ),
      );
    expect(await run(["--cursor", "abc"])).toEqual(
      usage(
        "rewards: --cursor: not a cursor this reader gave for a board page (pass the page's cursor as it is)\n",
      ),
    );
    // A cursor of this week's board, for last week's.
    const thisWeek = isoWeekOf(Date.now());
    await award(table.env, [signup("cli-board-one"), signup("cli-board-two")]);
    await writeHistoryOfStream(table.env, table.streamArn);
    const { cursor } = JSON.parse((await run(["--limit", "1", "--json"])).stdout);
    expect(cursor).toEqual(expect.any(String));
    expect(await run(["--week", isoWeekPlus(thisWeek, -1), "--cursor", cursor])).toEqual(
      usage(`rewards: --cursor: a cursor of the board of ${thisWeek}, not of ${isoWeekPlus(thisWeek, -1)}\n`),
    );
    expect(await run([], { REWARDS_BOARD_SHARDS: "0" })).toEqual({
      code: 1,
      stdout: "",
      stderr: "rewards: invalid configuration: REWARDS_BOARD_SHARDS must be 1 or more\n",
    });
    expect(await runCli(["board"], {})).toEqual({
      code: 1,
      stdout: "",
      stderr: "rewards: invalid configuration: TABLE_NAME is required\n",
    });
  });
});

describe("configuration and usage errors", () => {
  it("a missing variable is one line naming it, exit 1", async () => {
    const run = await runCli(["user", "x"], {});
    expect(run).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "rewards: invalid configuration: TABLE_NAME is required\n",
    });
  });

  it("rewards worker starts the function first: a variable the function refuses stops it, named, exit 1", async () => {
    const run = await runCli(["worker", "--wait", "1"], {
      ...env,
      REWARDS_CONCURRENCY: "0",
      LOG_LEVEL: "WARNING",
    });
    expect(run).toMatchObject({
      code: 1,
      stdout: "",
      stderr:
        "rewards: Runtime.InitError: ConfigError: invalid configuration: REWARDS_CONCURRENCY must be at least 1\n",
    });
  });

  it("rewards env prints a deployed stage's variables from its outputs, and says what is missing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outputs-"));
    const outputs = join(dir, "outputs.json");
    await writeFile(
      outputs,
      JSON.stringify({
        stage: "production",
        region: "eu-west-1",
        queueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/q",
        queueArn: "arn:aws:sqs:eu-west-1:123456789012:q",
        dlqUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/dlq",
        tableName: "rewards-production-RewardsTable",
        busName: "rewards-production-RewardsBusBus",
        busArn: "arn:aws:events:eu-west-1:123456789012:event-bus/rewards-production-RewardsBusBus",
        announcerFailureQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/failures",
        historyFailureQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/history-failures",
        readerUrl: "https://abc123.lambda-url.eu-west-1.on.aws/",
      }),
    );
    expect(await runCli(["env", "--outputs", outputs], {})).toMatchObject({
      code: 0,
      stdout:
        `# stage production, from ${outputs}\n` +
        "export AWS_REGION=eu-west-1\nexport AWS_DEFAULT_REGION=eu-west-1\nexport REWARDS_STAGE=production\n" +
        "export QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/q\n" +
        "export DLQ_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/dlq\nexport TABLE_NAME=rewards-production-RewardsTable\n" +
        "export BUS_NAME=rewards-production-RewardsBusBus\n" +
        "export ANNOUNCER_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/failures\n" +
        "export HISTORY_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/history-failures\n" +
        // The function URL without its trailing slash: `$READER_URL/users/<id>` is then one slash.
        "export READER_URL=https://abc123.lambda-url.eu-west-1.on.aws\n" +
        LOCAL_UNSETS,
    });
    await writeFile(outputs, JSON.stringify({ region: "eu-west-1" }));
    const partial = await runCli(["env", "--outputs", outputs], {});
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/lacks what the CLI needs \(queueUrl: .*dlqUrl: .*tableName: /);
  });

  it("rewards env exports the stage's daily cap, unsets it for a stage without one, and says when the outputs predate it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outputs-"));
    const outputs = join(dir, "outputs.json");
    const base =
      `# stage pr-42, from ${outputs}\n` +
      "export AWS_REGION=eu-west-1\nexport AWS_DEFAULT_REGION=eu-west-1\nexport REWARDS_STAGE=pr-42\n" +
      "export QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/q\n" +
      "export DLQ_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/dlq\nexport TABLE_NAME=t\n";
    const stage = { ...MINIMAL_STAGE, stage: "pr-42" };
    await writeFile(outputs, JSON.stringify({ ...stage, dailyXpCap: 50 }));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      // A stage without a read API unsets READER_URL: one left in the shell is another stage's.
      stdout: `${base}export REWARDS_DAILY_XP_CAP=50\nunset READER_URL\n${LOCAL_UNSETS}`,
      stderr: "",
    });
    const json = await runCli(["env", "--outputs", outputs, "--json"], {});
    expect(JSON.parse(json.stdout)).toMatchObject({ TABLE_NAME: "t", REWARDS_DAILY_XP_CAP: "50" });
    // No cap on the stage: a cap left in the shell must not make the CLI judge by it.
    await writeFile(outputs, JSON.stringify({ ...stage, dailyXpCap: 0 }));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      stdout: `${base}unset REWARDS_DAILY_XP_CAP\nunset READER_URL\n${LOCAL_UNSETS}`,
      stderr: "",
    });
    await writeFile(outputs, JSON.stringify(stage));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      stdout: `${base}unset READER_URL\n${LOCAL_UNSETS}`,
      stderr: `rewards: ${outputs} does not say the stage's daily cap (deployed before dailyXpCap was an output): REWARDS_DAILY_XP_CAP left as it is; deploy the stage again to have it\n`,
    });
  });

  it("rewards env exports the stage's history retention, 0 (forever) included, for `history rebuild`", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outputs-"));
    const outputs = join(dir, "outputs.json");
    const stage = { ...MINIMAL_STAGE, dailyXpCap: 0 };
    for (const historyDays of [0, 30]) {
      await writeFile(outputs, JSON.stringify({ ...stage, historyDays }));
      const run = await runCli(["env", "--outputs", outputs], {});
      expect(run.code).toBe(0);
      expect(run.stdout.split("\n")).toContain(`export REWARDS_HISTORY_DAYS=${historyDays}`);
      const json = await runCli(["env", "--outputs", outputs, "--json"], {});
      expect(JSON.parse(json.stdout)).toMatchObject({ REWARDS_HISTORY_DAYS: String(historyDays) });
    }
    // Outputs from before it was one: nothing exported, the shell's setting stands.
    await writeFile(outputs, JSON.stringify(stage));
    expect((await runCli(["env", "--outputs", outputs], {})).stdout).not.toContain("REWARDS_HISTORY_DAYS");
  });

  it("usage errors are one line and a hint, exit 2; --help and --version exit 0", async () => {
    const unknown = await cli(["publishh"]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toBe(
      "rewards: unknown command 'publishh'\n(Did you mean publish?)\n(run `rewards --help` for usage)\n",
    );
    const badValue = await cli(["dlq", "replay", "--max", "x"]);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr.trim().split("\n")).toEqual([
      "rewards: option '--max <n>' argument 'x' is invalid. expected a whole number of at least 1",
      "(run `rewards dlq replay --help` for usage)",
    ]);
    expect(await cli(["--version"])).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    expect((await runCli(["load", "--events", "zero"], {})).code).toBe(2);
    for (const command of ["load", "demo"]) {
      const shares = await runCli([command, "--duplicates", "0.9", "--invalid", "0.2"], {});
      expect(shares.code, command).toBe(2);
      expect(shares.stderr.split("\n")[0], command).toBe(
        "rewards: --duplicates, --invalid and --old together must not exceed 1",
      );
    }
    expect((await runCli(["no-such-command"], {})).code).toBe(2);
    const help = await runCli(["dlq", "replay", "--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: rewards dlq replay/);
  });
});
