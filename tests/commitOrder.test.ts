import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { achievementsOnTimeline, intentKey, profileKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { revokeIntent } from "@rewards/ops";
import {
  completed,
  drain,
  guardOf,
  lambdaContext,
  profileOf,
  recordAttempts,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import { describe, expect } from "vitest";

/**
 * A reader's commits carry increasing instants (docs/reading.md#when-exactly), whatever clock
 * stamped them: the timeline the guards record is the order the profile changed in, so the
 * history's writer never decides from a state that a commit stamped earlier could still change.
 */
const it = stackTest();
let seq = 0;
const newUser = (label: string) => `${label}-${++seq}`;
// After the events' own time (they are stamped now): an event from the future is refused.
const T = Date.now() + 60_000;

const workerAt = (env: Record<string, string>, clock: number) => {
  const deps = {
    ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }),
    emitMetrics: () => {},
    clock: () => clock,
  };
  return {
    deps,
    pay: (bodies: string[]) =>
      processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body))), lambdaContext()),
  };
};
const tableOf = (env: Record<string, string>) => createDynamoClient({ AWS_REGION: "us-east-1", ...env });
const iso = (ms: number) => new Date(ms).toISOString();

describe("a reader's commits in the order of their instants", () => {
  it("an award stamped before the reader's last commit goes again stamped just after it, and pays once", async ({
    env,
  }) => {
    const user = newUser("order");
    const table = tableOf(env);
    // Another worker, its clock 5 s ahead (or its transaction stamped later and committed first).
    expect((await workerAt(env, T + 5000).pay([completed(user, "ahead")])).counts.awarded).toBe(1);
    const behind = workerAt(env, T);
    const attempts = recordAttempts(behind.deps.dynamo);
    const { counts } = await behind.pay([completed(user, "behind")]);
    expect(counts).toEqual({ awarded: 1, duplicate: 0, parked: 0, failed: 0 });
    // Refused once (the profile's stamp condition), then committed after the profile's instant.
    expect(attempts.filter((a) => a.command === "TransactWriteItemsCommand")).toHaveLength(2);
    const guard = await guardOf(
      table,
      env.TABLE_NAME as string,
      intentKey([user, "behind", "article.completed"]),
    );
    expect(guard?.awardedAt).toBe(iso(T + 5001));
    expect(await profileOf(table, env.TABLE_NAME as string, user)).toMatchObject({
      xp: 40,
      awards: 2,
      updatedAt: iso(T + 5001),
    });
  });

  it("the race the history's writer lost: an award that committed first is first on the timeline", async ({
    env,
  }) => {
    // 80 XP, then two awards built at once: X stamped first, Y later; Y commits first and
    // crosses 100. The writer, reading then, earns level-2 at Y; X must not land before Y.
    const user = newUser("race");
    const table = tableOf(env);
    await table.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: { ...profileKey(user), xp: 80, awards: 4, updatedAt: iso(T - 60_000) },
      }),
    );
    await workerAt(env, T + 10).pay([completed(user, "y")]);
    await workerAt(env, T).pay([completed(user, "x")]);
    const guards = await Promise.all(
      ["y", "x"].map((slug) =>
        guardOf(table, env.TABLE_NAME as string, intentKey([user, slug, "article.completed"])),
      ),
    );
    expect(guards.map((guard) => guard?.awardedAt)).toEqual([iso(T + 10), iso(T + 11)]);
    const timeline = guards.map((guard, i) => ({
      grantId: `g-${i}`,
      type: "article.completed",
      xp: Number(guard?.amount),
      awardedAt: String(guard?.awardedAt),
      announced: true,
    }));
    // With the 80 XP before them as one award at the start.
    expect(
      achievementsOnTimeline([
        {
          grantId: "g-before",
          type: "signup.completed",
          xp: 80,
          awardedAt: iso(T - 60_000),
          announced: true,
        },
        ...timeline,
      ]).find(({ achievement }) => achievement === "level-2"),
    ).toEqual({ achievement: "level-2", earnedAt: iso(T + 10), grantId: "g-0" });
  });

  it("a revocation stamped before the reader's last commit is judged again and stamped after it", async ({
    env,
  }) => {
    const user = newUser("revoke");
    const table = tableOf(env);
    await workerAt(env, T).pay([completed(user, "a")]);
    await workerAt(env, T + 3000).pay([completed(user, "b")]);
    const key = intentKey([user, "a", "article.completed"]);
    const result = await revokeIntent(1, key, {
      dynamo: table,
      tableName: env.TABLE_NAME as string,
      reason: "bot",
      dryRun: false,
      clock: () => T + 1000,
    });
    expect(result).toMatchObject({ verdict: "revoked", revokedAt: iso(T + 3001) });
    expect(await guardOf(table, env.TABLE_NAME as string, key)).toMatchObject({ revokedAt: iso(T + 3001) });
    expect(await profileOf(table, env.TABLE_NAME as string, user)).toMatchObject({
      xp: 20,
      awards: 1,
      updatedAt: iso(T + 3001),
    });
  });

  it("a profile stamped more than 5 minutes ahead (a repair from a clock far ahead) parks its awards naming it, and a replay of a live guard is never judged in the future", async ({
    env,
  }) => {
    const user = newUser("ahead");
    const table = tableOf(env);
    const name = env.TABLE_NAME as string;
    await workerAt(env, T).pay([completed(user, "old")]);
    // --set-xp from a machine 91 days ahead would have stamped this (it now keeps AWS's clock).
    await table.send(
      new UpdateCommand({
        TableName: name,
        Key: profileKey(user),
        UpdateExpression: "SET updatedAt = :ahead",
        ExpressionAttributeValues: { ":ahead": iso(T + 91 * 86_400_000) },
      }),
    );
    const worker = workerAt(env, T + 1000);
    const fresh = Array.from({ length: 100 }, (_, i) => completed(user, `new-${i}`));
    const { counts } = await worker.pay([...fresh, completed(user, "old")]);
    // Nothing paid twice: the replay is a duplicate; the rest are parked, naming the stamp.
    expect(counts).toEqual({ awarded: 0, duplicate: 1, parked: 100, failed: 0 });
    const [parked] = await drain(worker.deps.sqs, env.DLQ_URL as string);
    expect(parked?.MessageAttributes?.["rewards.reason"]?.StringValue).toContain(
      `was refused: its updatedAt ${iso(T + 91 * 86_400_000)} is more than 5 minutes after the clock (${iso(T + 1000)})`,
    );
    expect(await profileOf(table, name, user)).toMatchObject({ xp: 20, awards: 1 });
  });

  it("an updatedAt that looks like an instant but is none (2026-12-99) is refused as such, not a crash; so is one in year 9999", async ({
    env,
  }) => {
    for (const stamp of ["2026-12-99T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]) {
      const user = newUser("bad-stamp");
      const table = tableOf(env);
      await table.send(
        new PutCommand({
          TableName: env.TABLE_NAME,
          Item: { ...profileKey(user), xp: 0, awards: 0, updatedAt: stamp },
        }),
      );
      const worker = workerAt(env, T);
      expect((await worker.pay([completed(user, "a")])).counts).toEqual({
        awarded: 0,
        duplicate: 0,
        parked: 1,
        failed: 0,
      });
      const [parked] = await drain(worker.deps.sqs, env.DLQ_URL as string);
      expect(parked?.MessageAttributes?.["rewards.reason"]?.StringValue).toMatch(
        stamp.startsWith("9999")
          ? /was refused: its updatedAt 9999-12-31T23:59:59\.999Z is more than 5 minutes after the clock/
          : /was refused: its updatedAt is not an instant \("2026-12-99T00:00:00\.000Z"\)/,
      );
    }
  });

  it("a revocation against a profile whose updatedAt is no instant fails naming it and the repair, at once", async ({
    env,
  }) => {
    const user = newUser("revoke-bad");
    const table = tableOf(env);
    await workerAt(env, T).pay([completed(user, "a")]);
    await table.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: profileKey(user),
        UpdateExpression: "SET updatedAt = :z",
        ExpressionAttributeValues: { ":z": "zzz" },
      }),
    );
    const result = await revokeIntent(1, intentKey([user, "a", "article.completed"]), {
      dynamo: table,
      tableName: env.TABLE_NAME as string,
      reason: "bot",
      dryRun: false,
      clock: () => T + 1000,
    });
    expect(result).toEqual({
      line: 1,
      verdict: "failed",
      intentKey: intentKey([user, "a", "article.completed"]),
      reason: `the profile of user "${user}" was refused: its updatedAt is not an instant ("zzz"); repair it with \`rewards user ${user} --set-xp <n> --yes\`, then run again`,
    });
  });
});
