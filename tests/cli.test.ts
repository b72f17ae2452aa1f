import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { dayNumberOf, dayOfNumber, profileKey } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import type { Provisioned } from "@rewards/local";
import { startPoller } from "@rewards/local";
import { queueCounts, waitForDrain } from "@rewards/ops";
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
      },
      history: { awards: [] },
      achievements: [],
    });
    const text = (await cli(["user", "nobody"])).stdout;
    expect(text).toMatch(/│ streak │ none kept +│\n/);
    expect(text).toContain(
      "│ counts │ article.completed 0, article.shared 0, streak.day 0, signup.completed 0 │\n",
    );
    expect(text).toContain(
      "└────────┴─────────────────────────────────────────────────────────────────────────┘\nno achievements yet\n",
    );
    const tooLong = await cli(["user", "u".repeat(257)]);
    expect(tooLong).toMatchObject({ code: 2, stdout: "" });
    expect(tooLong.stderr).toMatch(/^rewards: userId: must be 1 to 256 characters/);
    const guard = await cli(["guard", "article.completed", "userId=u"]);
    expect(guard.code).toBe(2);
    expect(guard.stderr).toMatch(/^rewards: invalid fields for article.completed: articleSlug: /);
    expect((await cli(["guard", "article.liked", "userId=u"])).code).toBe(2);
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
        "export AWS_REGION=eu-west-1\nexport QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/q\n" +
        "export DLQ_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/dlq\nexport TABLE_NAME=rewards-production-RewardsTable\n" +
        "export BUS_NAME=rewards-production-RewardsBusBus\n" +
        "export ANNOUNCER_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/failures\n" +
        "export HISTORY_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/history-failures\n" +
        // The function URL without its trailing slash: `$READER_URL/users/<id>` is then one slash.
        "export READER_URL=https://abc123.lambda-url.eu-west-1.on.aws\n",
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
      "export AWS_REGION=eu-west-1\nexport QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/q\n" +
      "export DLQ_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/dlq\nexport TABLE_NAME=t\n";
    const stage = MINIMAL_STAGE;
    await writeFile(outputs, JSON.stringify({ ...stage, dailyXpCap: 50 }));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      // A stage without a read API unsets READER_URL: one left in the shell is another stage's.
      stdout: `${base}export REWARDS_DAILY_XP_CAP=50\nunset READER_URL\n`,
      stderr: "",
    });
    const json = await runCli(["env", "--outputs", outputs, "--json"], {});
    expect(JSON.parse(json.stdout)).toMatchObject({ TABLE_NAME: "t", REWARDS_DAILY_XP_CAP: "50" });
    // No cap on the stage: a cap left in the shell must not make the CLI judge by it.
    await writeFile(outputs, JSON.stringify({ ...stage, dailyXpCap: 0 }));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      stdout: `${base}unset REWARDS_DAILY_XP_CAP\nunset READER_URL\n`,
      stderr: "",
    });
    await writeFile(outputs, JSON.stringify(stage));
    expect(await runCli(["env", "--outputs", outputs], {})).toEqual({
      code: 0,
      stdout: `${base}unset READER_URL\n`,
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
