import { PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { intentKey, profileKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import {
  completed,
  eventBody,
  guardOf,
  lambdaContext,
  profileOf,
  recordAttempts,
  signup,
  sqsEvent,
  sqsRecord,
  stackTest,
  throttled,
} from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import { describe, expect } from "vitest";

/**
 * One transaction per user per batch and the daily cap in it (docs/awards.md), through the
 * handler against the local stack, counting the transactions each batch really sends.
 */
const it = stackTest();
let seq = 0;
const newUser = (label: string) => `${label}-${++seq}`;

type TestDeps = WorkerDeps & { env: Record<string, string> };
// Version 0, no rules read: these tests count the award's own calls (the rules' reads: tests/rulesWorker.test.ts).
function depsFor(env: Record<string, string>, extra: Record<string, string> = {}): TestDeps {
  return {
    ...createWorkerDeps({ ...env, LOG_LEVEL: "silent", ...extra }),
    rules: undefined,
    emitMetrics: () => {},
    env,
  };
}

/** Every TransactWriteItems the deps' client sends, as parsed request bodies. */
function transactions(deps: TestDeps) {
  const attempts = recordAttempts(deps.dynamo);
  return () =>
    attempts
      .filter((attempt) => attempt.command === "TransactWriteItemsCommand")
      .map((attempt) => JSON.parse(attempt.body) as { TransactItems: Array<Record<string, unknown>> });
}

const run = (deps: WorkerDeps, bodies: string[]) =>
  processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body))), lambdaContext());
const reader = (deps: TestDeps) => createDynamoClient({ AWS_REGION: "us-east-1", ...deps.env });
const xpOf = async (deps: TestDeps, userId: string) =>
  (await profileOf(reader(deps), deps.tableName, userId))?.xp;
const guardFor = (deps: TestDeps, parts: string[]) => guardOf(reader(deps), deps.tableName, intentKey(parts));
const dayOf = async (deps: TestDeps, userId: string, day: string) =>
  (
    await reader(deps).send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: "pk = :pk AND sk = :sk",
        ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":sk": `DAY#${day}` },
        ConsistentRead: true,
      }),
    )
  ).Items?.[0];
const today = () => new Date().toISOString().slice(0, 10);
const shared = (userId: string, articleSlug: string, channel: string) =>
  eventBody("article.shared", { userId, articleSlug, channel });

describe("one transaction per user per batch", () => {
  it("two users × five new intents: one transaction each, every guard its own", async ({ env }) => {
    const deps = depsFor(env);
    const sent = transactions(deps);
    const [a, b] = [newUser("five-a"), newUser("five-b")];
    const bodies = [a, b].flatMap((user) =>
      ["s1", "s2", "s3", "s4", "s5"].map((slug) => completed(user, slug)),
    );
    const { results, counts } = await run(deps, bodies);
    expect(counts).toEqual({ awarded: 10, duplicate: 0, parked: 0, failed: 0 });
    expect(sent()).toHaveLength(2);
    expect(sent().map((t) => t.TransactItems.length)).toEqual([6, 6]);
    expect(await xpOf(deps, a)).toBe(100);
    expect(await xpOf(deps, b)).toBe(100);
    const profile = await profileOf(reader(deps), deps.tableName, a);
    expect(profile).toMatchObject({ xp: 100, awards: 5 });
    const guards = await Promise.all(
      ["s1", "s2", "s3", "s4", "s5"].map((slug) => guardFor(deps, [a, slug, "article.completed"])),
    );
    // Each guard its own message and event; one awardedAt for the transaction.
    expect(new Set(guards.map((g) => g?.messageId)).size).toBe(5);
    expect(new Set(guards.map((g) => g?.eventId)).size).toBe(5);
    expect(new Set(guards.map((g) => g?.awardedAt)).size).toBe(1);
    expect(guards.map((g) => g?.amount)).toEqual([20, 20, 20, 20, 20]);
    expect(guards[0]?.messageId).toBe(results[0]?.messageId);
  });

  it("paid and new intents mixed: at most two transactions, exact XP", async ({ env }) => {
    const deps = depsFor(env);
    const user = newUser("mixed");
    await run(deps, [completed(user, "old-1"), completed(user, "old-2")]);
    const sent = transactions(deps);
    const { results, counts } = await run(deps, [
      completed(user, "old-1"),
      completed(user, "new-1"),
      completed(user, "old-2"),
      shared(user, "new-1", "x"),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(["duplicate", "awarded", "duplicate", "awarded"]);
    expect(counts).toEqual({ awarded: 2, duplicate: 2, parked: 0, failed: 0 });
    expect(sent()).toHaveLength(2);
    // The second holds only what the first's cancellation left: two guards and the profile.
    expect(sent()[1]?.TransactItems).toHaveLength(3);
    expect(await xpOf(deps, user)).toBe(20 + 20 + 20 + 5);
    expect((await profileOf(reader(deps), deps.tableName, user))?.awards).toBe(4);
  });

  it("two copies of one intent in one batch: paid once, neither failed", async ({ env }) => {
    const deps = depsFor(env);
    const sent = transactions(deps);
    const user = newUser("copies");
    const { results } = await run(deps, [completed(user, "same"), completed(user, "same")]);
    expect(results.map((r) => r.outcome)).toEqual(["awarded", "duplicate"]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.TransactItems).toHaveLength(2);
    expect(await xpOf(deps, user)).toBe(20);
  });

  it("100 intents of one user: all paid, no transaction over 100 items, two transactions", async ({
    env,
  }) => {
    const deps = depsFor(env);
    const sent = transactions(deps);
    const user = newUser("hundred");
    const { counts } = await run(
      deps,
      Array.from({ length: 100 }, (_, i) => completed(user, `slug-${i}`)),
    );
    expect(counts).toEqual({ awarded: 100, duplicate: 0, parked: 0, failed: 0 });
    expect(sent().map((t) => t.TransactItems.length)).toEqual([100, 2]);
    expect(await xpOf(deps, user)).toBe(2000);
    expect((await profileOf(reader(deps), deps.tableName, user))?.awards).toBe(100);
  });

  it("FIFO: a group's run of one user's consecutive records is one transaction; order kept", async ({
    env,
  }) => {
    const deps = depsFor(env);
    const sent = transactions(deps);
    const [ann, bob] = [newUser("fifo-ann"), newUser("fifo-bob")];
    const fifo = { groupId: "g1", queueArn: "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo" };
    const records = [
      sqsRecord(completed(ann, "a"), fifo),
      sqsRecord(completed(ann, "b"), fifo),
      sqsRecord(completed(bob, "a"), fifo),
      sqsRecord(completed(ann, "c"), fifo),
    ];
    const { results } = await processBatch(deps, sqsEvent(records), lambdaContext());
    expect(results.map((r) => r.outcome)).toEqual(["awarded", "awarded", "awarded", "awarded"]);
    expect(sent().map((t) => t.TransactItems.length)).toEqual([3, 2, 2]);
    expect(await xpOf(deps, ann)).toBe(60);
  });

  it("a poisoned profile rejects only its user's records; another user in the batch is paid", async ({
    env,
  }) => {
    const deps = depsFor(env);
    const [bad, good] = [newUser("poisoned"), newUser("fine")];
    await reader(deps).send(
      new PutCommand({ TableName: deps.tableName, Item: { ...profileKey(bad), xp: "lots", awards: 1 } }),
    );
    const { results, counts } = await run(deps, [
      completed(bad, "a"),
      completed(good, "a"),
      completed(bad, "b"),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(["parked", "awarded", "parked"]);
    expect(results[0]).toMatchObject({ parkCode: "rejected" });
    expect(results[0]?.detail).toMatch(
      /the profile of user "poisoned-\d+" \(USER#poisoned-\d+\) was refused/,
    );
    expect(counts).toEqual({ awarded: 1, duplicate: 0, parked: 2, failed: 0 });
    expect(await xpOf(deps, good)).toBe(20);
    expect(await guardFor(deps, [bad, "a", "article.completed"])).toBeUndefined();
  });

  it("a lost answer pays once: the retry with the same token succeeds, every record awarded", async ({
    env,
  }) => {
    const deps = depsFor(env);
    deps.retryPolicy = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 };
    const attempts = recordAttempts(deps.dynamo, (attempt, index) =>
      attempt.command === "TransactWriteItemsCommand" && index === 0 ? { kind: "drop" } : { kind: "pass" },
    );
    const user = newUser("lost");
    const { results } = await run(deps, [completed(user, "a"), completed(user, "b"), signup(user)]);
    expect(results.map((r) => r.outcome)).toEqual(["awarded", "awarded", "awarded"]);
    const bodies = attempts.filter((a) => a.command === "TransactWriteItemsCommand").map((a) => a.body);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    expect(new Set(bodies).size).toBe(1);
    expect(await xpOf(deps, user)).toBe(140);
    expect((await profileOf(reader(deps), deps.tableName, user))?.awards).toBe(3);
  });
});

describe("the daily cap in the same transaction", () => {
  const capped = (env: Record<string, string>) => depsFor(env, { REWARDS_DAILY_XP_CAP: "50" });

  it("in one batch: 20, 20, 10 then capped; another day paid; a signup on top; the day holds 50", async ({
    env,
  }) => {
    const deps = capped(env);
    const sent = transactions(deps);
    const user = newUser("cap-one");
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const { results, counts } = await run(deps, [
      completed(user, "a"),
      completed(user, "b"),
      completed(user, "c"),
      completed(user, "d"),
      eventBody("article.completed", { userId: user, articleSlug: "e" }, { time: yesterday }),
      signup(user),
    ]);
    expect(results.map((r) => [r.outcome, r.xp])).toEqual([
      ["awarded", 20],
      ["awarded", 20],
      ["awarded", 10],
      ["capped", undefined],
      ["awarded", 20],
      ["awarded", 100],
    ]);
    expect(counts).toEqual({ awarded: 5, duplicate: 0, parked: 0, failed: 0, capped: 1 });
    // Under the cap as planned: one transaction, no read.
    expect(sent()).toHaveLength(1);
    expect(await guardFor(deps, [user, "c", "article.completed"])).toMatchObject({
      amount: 10,
      requested: 20,
    });
    expect(await guardFor(deps, [user, "d", "article.completed"])).toMatchObject({
      amount: 0,
      requested: 20,
    });
    expect(await guardFor(deps, [user, "a", "article.completed"])).not.toHaveProperty("requested");
    expect(await xpOf(deps, user)).toBe(50 + 20 + 100);
    expect((await profileOf(reader(deps), deps.tableName, user))?.awards).toBe(6);
    expect(await dayOf(deps, user, today())).toMatchObject({ xp: 50 });
    expect(await dayOf(deps, user, yesterday.slice(0, 10))).toMatchObject({ xp: 20 });
    const dayItem = await dayOf(deps, user, today());
    expect(dayItem?.expiresAt).toBe(Date.parse(`${today()}T00:00:00Z`) / 1000 + 86_400 + 90 * 86_400);

    // Redelivery of the capped one: a duplicate at 0 XP.
    const again = await run(deps, [completed(user, "d")]);
    expect(again.results.map((r) => r.outcome)).toEqual(["duplicate"]);
    expect(await xpOf(deps, user)).toBe(170);
  });

  it("over several batches: the cap's cancellation returns the day's total, one extra transaction", async ({
    env,
  }) => {
    const deps = capped(env);
    const user = newUser("cap-many");
    expect((await run(deps, [completed(user, "a")])).results[0]).toMatchObject({
      outcome: "awarded",
      xp: 20,
    });
    expect((await run(deps, [completed(user, "b")])).results[0]).toMatchObject({
      outcome: "awarded",
      xp: 20,
    });
    const sent = transactions(deps);
    expect((await run(deps, [completed(user, "c")])).results[0]).toMatchObject({
      outcome: "awarded",
      xp: 10,
    });
    expect(sent()).toHaveLength(2);
    expect((await run(deps, [completed(user, "d")])).results[0]).toMatchObject({ outcome: "capped" });
    expect((await run(deps, [completed(user, "d")])).results[0]).toMatchObject({ outcome: "duplicate" });
    expect((await run(deps, [signup(user)])).results[0]).toMatchObject({ outcome: "awarded", xp: 100 });
    expect(await xpOf(deps, user)).toBe(150);
    expect(await dayOf(deps, user, today())).toMatchObject({ xp: 50 });
    expect(await guardFor(deps, [user, "c", "article.completed"])).toMatchObject({
      amount: 10,
      requested: 20,
    });
  });

  it("without a cap the table gets no day items", async ({ env }) => {
    const deps = depsFor(env);
    const user = newUser("no-cap");
    await run(deps, [completed(user, "a")]);
    expect(await dayOf(deps, user, today())).toBeUndefined();
  });

  it("a day total that is not a number rejects that day's records only", async ({ env }) => {
    const deps = capped(env);
    const user = newUser("bad-day");
    await reader(deps).send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: `USER#${user}`, sk: `DAY#${today()}` },
        UpdateExpression: "SET xp = :text",
        ExpressionAttributeValues: { ":text": "ten" },
      }),
    );
    const { results } = await run(deps, [completed(user, "a"), signup(user)]);
    expect(results.map((r) => r.outcome)).toEqual(["parked", "awarded"]);
    expect(results[0]?.detail).toMatch(/the day total of user .* was refused/);
    expect(await xpOf(deps, user)).toBe(100);
    expect(await guardFor(deps, [user, "a", "article.completed"])).toBeUndefined();
  });

  it("a guard's key is its own: copies of a capped intent in one batch are duplicates", async ({ env }) => {
    const deps = capped(env);
    const user = newUser("cap-copies");
    const { results } = await run(deps, [
      completed(user, "a"),
      completed(user, "b"),
      completed(user, "c"),
      completed(user, "d"),
      completed(user, "d"),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(["awarded", "awarded", "awarded", "capped", "duplicate"]);
    expect(await xpOf(deps, user)).toBe(50);
  });
});

describe("FIFO order inside a coalesced run (issue 34)", () => {
  const fifo = { groupId: "g1", queueArn: "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo" };
  const fifoRun = (deps: WorkerDeps, bodies: string[]) =>
    processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body, fifo))), lambdaContext());
  /** A day total that is not a number: the day's capped records are rejected, a signup is not. */
  const poisonDay = (deps: TestDeps, user: string) =>
    reader(deps).send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: `USER#${user}`, sk: `DAY#${today()}` },
        UpdateExpression: "SET xp = :text",
        ExpressionAttributeValues: { ":text": "ten" },
      }),
    );
  const outcomes = (results: Array<{ outcome: string; cause?: string }>) =>
    results.map((r) => [r.outcome, r.cause]);

  it("[a rejected, b] of one user, the park failing: both failed, b never paid", async ({ env }) => {
    const deps = { ...depsFor(env, { REWARDS_DAILY_XP_CAP: "50" }), dlqUrl: undefined };
    const sent = transactions(deps);
    const user = newUser("fifo-park-fails");
    await poisonDay(deps, user);
    const { results, response } = await fifoRun(deps, [completed(user, "a"), signup(user)]);
    expect(outcomes(results)).toEqual([
      ["failed", "park_failed"],
      ["failed", "fifo_blocked"],
    ]);
    expect(response.batchItemFailures).toHaveLength(2);
    // The signup went in the first transaction only, which was cancelled: nothing written.
    expect(sent()).toHaveLength(1);
    expect(await xpOf(deps, user)).toBeUndefined();
    expect(await guardFor(deps, [user, "signup"])).toBeUndefined();
  });

  it("the same records of two users: [failed, failed (fifo_blocked)]", async ({ env }) => {
    const deps = { ...depsFor(env, { REWARDS_DAILY_XP_CAP: "50" }), dlqUrl: undefined };
    const [ann, bob] = [newUser("fifo-two-a"), newUser("fifo-two-b")];
    await poisonDay(deps, ann);
    const { results } = await fifoRun(deps, [completed(ann, "a"), signup(bob)]);
    expect(outcomes(results)).toEqual([
      ["failed", "park_failed"],
      ["failed", "fifo_blocked"],
    ]);
    expect(await xpOf(deps, bob)).toBeUndefined();
  });

  it("[a rejected, b] with a DLQ: a parked first, then b sent and paid", async ({ env }) => {
    const deps = depsFor(env, { REWARDS_DAILY_XP_CAP: "50" });
    const log: string[] = [];
    recordAttempts(deps.dynamo, (attempt) => {
      log.push(attempt.command);
      return { kind: "pass" };
    });
    recordAttempts(deps.sqs, (attempt) => {
      log.push(attempt.command);
      return { kind: "pass" };
    });
    const user = newUser("fifo-parked");
    await poisonDay(deps, user);
    const { results } = await fifoRun(deps, [completed(user, "a"), signup(user), completed(user, "b")]);
    expect(results.map((r) => [r.outcome, r.attempts])).toEqual([
      ["parked", 1],
      ["awarded", 2],
      ["parked", 1],
    ]);
    // The signup (held behind a) is written only after a's park; b, refused with a, is parked last.
    expect(log).toEqual([
      "TransactWriteItemsCommand",
      "SendMessageCommand",
      "TransactWriteItemsCommand",
      "SendMessageCommand",
    ]);
    expect(await xpOf(deps, user)).toBe(100);
  });

  it("[a new, b paid before, c new], the second transaction throttled out: all failed, no XP", async ({
    env,
  }) => {
    const deps = depsFor(env);
    deps.retryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 2000 };
    const user = newUser("fifo-throttled");
    await fifoRun(deps, [completed(user, "b")]);
    let transaction = 0;
    recordAttempts(deps.dynamo, (attempt) =>
      attempt.command === "TransactWriteItemsCommand" && transaction++ > 0
        ? { kind: "fail", error: throttled }
        : { kind: "pass" },
    );
    const { results, response } = await fifoRun(deps, [
      completed(user, "a"),
      completed(user, "b"),
      completed(user, "c"),
    ]);
    expect(results.map((r) => [r.outcome, r.cause, r.attempts])).toEqual([
      ["failed", "transient", 4],
      ["failed", "fifo_blocked", 1],
      ["failed", "fifo_blocked", 4],
    ]);
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(results.map((r) => r.messageId));
    expect(await xpOf(deps, user)).toBe(20);
    expect(await guardFor(deps, [user, "a", "article.completed"])).toBeUndefined();
  });

  it("a standard queue keeps the coalesced outcomes: [failed, duplicate, failed]", async ({ env }) => {
    const deps = depsFor(env);
    deps.retryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 2000 };
    const user = newUser("std-throttled");
    await run(deps, [completed(user, "b")]);
    let transaction = 0;
    recordAttempts(deps.dynamo, (attempt) =>
      attempt.command === "TransactWriteItemsCommand" && transaction++ > 0
        ? { kind: "fail", error: throttled }
        : { kind: "pass" },
    );
    const { results } = await run(deps, [completed(user, "a"), completed(user, "b"), completed(user, "c")]);
    expect(results.map((r) => r.outcome)).toEqual(["failed", "duplicate", "failed"]);
  });
});
