import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { isoWeekOf, profileKey } from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient } from "@rewards/core/aws";
import { repairProfileXp } from "@rewards/ops";
import { createReader } from "@rewards/reader";
import {
  completed,
  drain,
  lambdaContext,
  profileIn,
  runCli,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import { describe, expect } from "vitest";

/**
 * `rewards user <id> --set-xp N --yes` (docs/operations.md#repairing-a-profile) through the
 * real command: what it writes is a profile the reader reads, and what `rewards user` advises
 * for a profile the reader refuses is a command that mends it.
 */
const it = stackTest();

const userOf = (name: string) => `${name}-${randomUUID().slice(0, 6)}`;

async function put(env: Record<string, string>, item: Record<string, unknown>) {
  const doc = createDynamoClient(env);
  try {
    await doc.send(new PutCommand({ TableName: env.TABLE_NAME, Item: item }));
  } finally {
    doc.destroy();
  }
}

async function readProfile(env: Record<string, string>, userId: string) {
  const client = createDynamoBaseClient(env);
  try {
    return await createReader({ tableName: env.TABLE_NAME as string, client }).profile(userId);
  } finally {
    client.destroy();
  }
}

const today = () => new Date().toISOString().slice(0, 10);

describe("rewards user --set-xp", () => {
  it("refuses a user with no profile and writes nothing: there is no XP to repair", async ({ env }) => {
    const user = userOf("new");
    expect(await runCli(["user", user, "--set-xp", "50", "--yes"], env)).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: user "${user}" has no profile, so there is no XP to repair: nothing written (a user without one reads as 0 XP; the first award writes it)\n`,
    });
    expect(await profileIn(env, user)).toBeUndefined();
    expect(await readProfile(env, user)).toEqual({
      userId: user,
      xp: 0,
      awards: 0,
      counts: { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
      streak: { current: 0, longest: 0 },
      level: { level: 1, xpFloor: 0, xpNext: 100 },
      today: { day: today(), xp: 0 },
      week: { week: isoWeekOf(Date.now()), xp: 0 },
    });
  });

  it("mends a profile without an awards count (as --set-xp once wrote one): 0 awards, and the reader reads it", async ({
    env,
  }) => {
    const user = userOf("no-awards");
    const key = profileKey(user);
    await put(env, { ...key, xp: 50, updatedAt: "2026-12-01T09:00:00.000Z" });

    const refused = await runCli(["user", user], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`^rewards: the item USER#${user} PROFILE cannot be read: awards: `),
    );
    expect(refused.stderr).toMatch(
      new RegExp(`; repair it with \`rewards user ${user} --set-xp <n> --yes\`\n$`),
    );

    const before = new Date().toISOString();
    const set = await runCli(["user", user, "--set-xp", "50", "--yes", "--json"], env);
    const after = new Date().toISOString();
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ userId: user, from: 50, to: 50, awards: { from: null, to: 0 } });
    const item = await profileIn(env, user);
    expect(item).toEqual({ ...key, xp: 50, awards: 0, updatedAt: expect.any(String) });
    const updatedAt = String(item?.updatedAt);
    expect(updatedAt >= before && updatedAt <= after, updatedAt).toBe(true);
    expect(await readProfile(env, user)).toEqual({
      userId: user,
      xp: 50,
      awards: 0,
      counts: { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
      streak: { current: 0, longest: 0 },
      level: { level: 1, xpFloor: 0, xpNext: 100 },
      today: { day: today(), xp: 0 },
      week: { week: isoWeekOf(Date.now()), xp: 0 },
      updatedAt,
    });
    expect((await runCli(["user", user, "--json"], env)).code).toBe(0);
  });

  it("says so in its table when it wrote the missing count", async ({ env }) => {
    const user = userOf("rehearsal");
    // A rehearsal's corrupted profile, on a user with none: xp is text, and there is no awards count.
    expect((await runCli(["user", user, "--corrupt-xp", "twenty", "--yes"], env)).code).toBe(0);
    const set = await runCli(["user", user, "--set-xp", "0", "--yes"], env);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/│ xp +│ "twenty" → 0 +│\n/);
    expect(set.stdout).toMatch(/│ awards +│ null → 0 +│\n/);
    expect(set.stderr).toMatch(
      /"from":"twenty","to":0,"awards":\{"from":null,"to":0\}.*profile xp set by an operator/,
    );
    expect(await profileIn(env, user)).toEqual({
      ...profileKey(user),
      xp: 0,
      awards: 0,
      updatedAt: expect.any(String),
    });
  });

  it("refuses a profile whose awards count is wrong, which it cannot know, and rewards user says so", async ({
    env,
  }) => {
    const user = userOf("bad-awards");
    const stored = {
      ...profileKey(user),
      xp: "twenty",
      awards: "three",
      updatedAt: "2026-12-01T09:00:00.000Z",
    };
    await put(env, stored);
    const problem = `the profile of user "${user}" (USER#${user}) has awards "three", not a count of awards`;

    const refused = await runCli(["user", user], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`^rewards: the item USER#${user} PROFILE cannot be read: xp: `),
    );
    expect(
      refused.stderr.endsWith(
        `; ${problem}, which no rewards command can know: set it by hand (docs/operations.md#repairing-a-profile)\n`,
      ),
    ).toBe(true);

    expect(await runCli(["user", user, "--set-xp", "20", "--yes"], env)).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: ${problem}, which --set-xp cannot know: nothing written; set awards by hand first (docs/operations.md#repairing-a-profile)\n`,
    });
    expect(await profileIn(env, user)).toEqual(stored);
  });
});

describe("the profile's stamp (updatedAt) under --set-xp", () => {
  it("one that is no instant parks the award naming it; --set-xp mends it, and the replayed award pays", async ({
    env,
  }) => {
    const user = userOf("stamp");
    await put(env, { ...profileKey(user), xp: 10, awards: 1, updatedAt: "yesterday" });
    const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
    const pay = () => processBatch(deps, sqsEvent([sqsRecord(completed(user, "a"))]), lambdaContext());
    expect((await pay()).counts).toEqual({ awarded: 0, duplicate: 0, parked: 1, failed: 0 });
    const [parked] = await drain(deps.sqs, env.DLQ_URL as string);
    expect(parked?.MessageAttributes?.["rewards.reason"]?.StringValue).toContain(
      `the profile of user "${user}" (USER#${user}) was refused: its updatedAt is not an instant ("yesterday")`,
    );
    const before = new Date().toISOString();
    expect((await runCli(["user", user, "--set-xp", "10", "--yes", "--json"], env)).code).toBe(0);
    const mended = String((await profileIn(env, user))?.updatedAt);
    expect(mended >= before && mended <= new Date().toISOString(), mended).toBe(true);
    expect((await pay()).counts).toEqual({ awarded: 1, duplicate: 0, parked: 0, failed: 0 });
    expect(await profileIn(env, user)).toMatchObject({ xp: 30, awards: 2 });
  });

  it("a later instant is kept (a reader's stamp never moves back); one more than 5 minutes ahead is mended to now", async ({
    env,
  }) => {
    const user = userOf("later");
    const later = new Date(Date.now() + 120_000).toISOString();
    await put(env, { ...profileKey(user), xp: "x", awards: 1, updatedAt: later });
    expect((await runCli(["user", user, "--set-xp", "20", "--yes"], env)).code).toBe(0);
    expect(await profileIn(env, user)).toEqual({ ...profileKey(user), xp: 20, awards: 1, updatedAt: later });
    const far = userOf("far");
    await put(env, {
      ...profileKey(far),
      xp: "x",
      awards: 1,
      updatedAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const before = new Date().toISOString();
    expect((await runCli(["user", far, "--set-xp", "20", "--yes"], env)).code).toBe(0);
    const mended = String((await profileIn(env, far))?.updatedAt);
    expect(mended >= before && mended <= new Date().toISOString(), mended).toBe(true);
  });

  it("a 0-XP award that commits between the repair's read and its write: the repair refuses, the stamp never moves back", async ({
    env,
  }) => {
    const user = userOf("race");
    const capped = {
      ...createWorkerDeps({ ...env, LOG_LEVEL: "silent", REWARDS_DAILY_XP_CAP: "20" }),
      emitMetrics: () => {},
    };
    const pay = (slug: string) =>
      processBatch(capped, sqsEvent([sqsRecord(completed(user, slug))]), lambdaContext());
    expect((await pay("a")).counts).toMatchObject({ awarded: 1 });
    const table = createDynamoClient(env);
    let raced = false;
    const racing = {
      config: table.config,
      send: async (command: { constructor: { name: string } }, ...rest: unknown[]) => {
        const answer = await (table.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
        if (!raced && command.constructor.name === "GetCommand") {
          raced = true;
          expect((await pay("b")).counts).toMatchObject({ capped: 1 });
        }
        return answer;
      },
    } as unknown as typeof table;
    await expect(repairProfileXp(racing, env.TABLE_NAME as string, user, 20)).rejects.toThrow(
      "the profile changed while it was being repaired (its xp was 20): nothing written; run again",
    );
    table.destroy();
    expect(await profileIn(env, user)).toMatchObject({ xp: 20, awards: 2 });
  });
});
