import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type AwardRequest, decodeEvent, intentKey } from "@rewards/core";
import { awardTogether, createDynamoClient } from "@rewards/core/aws";
import { WorkerStats } from "@rewards/local";
import {
  completed,
  eventBody,
  guardOf,
  lambdaContext,
  profileOf,
  recordAttempts,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import { pino } from "pino";
import { describe, expect } from "vitest";

/**
 * Three kinds of bug in the coalesced award path (docs/awards.md) that once got through with
 * every related test green, pinned through the handler and through core's awardTogether,
 * with the real SDK against the local stack:
 * 1. the 100-item limit counted without the day totals (a new day adds an item);
 * 2. what a lost answer reports under the cap: the guard's `amount`, never the rule's XP;
 * 3. after a partial cancellation, in runs of several transactions or with copies of an
 *    intent, a record is known by its place in the run, not its place in one transaction.
 */
const it = stackTest();
let seq = 0;
const newUser = (label: string) => `${label}-${++seq}`;
const DAY_MS = 86_400_000;
const LOST_ANSWER_OWN =
  "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's";

type TestDeps = WorkerDeps & { env: Record<string, string>; metrics: string[]; lines: LogLine[] };
type LogLine = Record<string, unknown>;

function depsFor(env: Record<string, string>, extra: Record<string, string> = {}): TestDeps {
  const lines: LogLine[] = [];
  const metrics: string[] = [];
  const logger = pino(
    { level: "debug", base: null, timestamp: false },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return {
    ...createWorkerDeps({ ...env, LOG_LEVEL: "silent", ...extra }),
    // Version 0, no rules read: these tests count the award's own calls.
    rules: undefined,
    logger,
    emitMetrics: (line) => metrics.push(line),
    retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 },
    env,
    metrics,
    lines,
  };
}

/** Every TransactWriteItems the client sends (each HTTP attempt), as parsed request bodies. */
function transactions(client: unknown, fault?: Parameters<typeof recordAttempts>[1]) {
  const attempts = recordAttempts(client, fault);
  return () =>
    attempts
      .filter((attempt) => attempt.command === "TransactWriteItemsCommand")
      .map(
        (attempt) =>
          JSON.parse(attempt.body) as {
            TransactItems: Array<Record<string, { Key?: { sk?: { S: string } } }>>;
            ClientRequestToken?: string;
          },
      );
}

/**
 * An endpoint that does not honour ClientRequestToken (or a token past its 10 minutes): the
 * token is taken out of every TransactWriteItems before it is signed, so a retry of a
 * transaction that committed meets its own guards instead of answering success.
 */
function forgetTokens(client: unknown): void {
  (
    client as {
      middlewareStack: {
        add: (m: unknown, o: { step: "build"; name: string; priority: "low" }) => void;
      };
    }
  ).middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { request: { body?: unknown; headers: Record<string, string> } }) => {
        const { body } = args.request;
        if (context.commandName === "TransactWriteItemsCommand" && body !== undefined) {
          const text = body instanceof Uint8Array ? Buffer.from(body).toString() : String(body);
          const { ClientRequestToken: _token, ...rest } = JSON.parse(text);
          const stripped = JSON.stringify(rest);
          args.request.body = stripped;
          if (args.request.headers["content-length"] !== undefined)
            args.request.headers["content-length"] = String(Buffer.byteLength(stripped));
        }
        return next(args);
      },
    { step: "build", name: "forgetTokens", priority: "low" },
  );
}

const run = (deps: WorkerDeps, bodies: string[]) =>
  processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body))), lambdaContext());
const reader = (env: Record<string, string>) => createDynamoClient({ AWS_REGION: "us-east-1", ...env });
const profile = (env: Record<string, string>, userId: string) =>
  profileOf(reader(env), env.TABLE_NAME as string, userId);
const guardFor = (env: Record<string, string>, parts: string[]) =>
  guardOf(reader(env), env.TABLE_NAME as string, intentKey(parts));
const dayXp = async (env: Record<string, string>, userId: string, day: string) =>
  (
    await reader(env).send(
      new QueryCommand({
        TableName: env.TABLE_NAME,
        KeyConditionExpression: "pk = :pk AND sk = :sk",
        ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":sk": `DAY#${day}` },
        ConsistentRead: true,
      }),
    )
  ).Items?.[0]?.xp;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const completedAt = (userId: string, articleSlug: string, ms: number) =>
  eventBody("article.completed", { userId, articleSlug }, { time: new Date(ms).toISOString() });
const shared = (userId: string, articleSlug: string, channel: string) =>
  eventBody("article.shared", { userId, articleSlug, channel });
const streak = (userId: string, day: string) => eventBody("streak.day", { userId, day });
const daysIn = (transaction: { TransactItems: Array<Record<string, { Key?: { sk?: { S: string } } }>> }) =>
  transaction.TransactItems.filter((item) => item.Update?.Key?.sk?.S.startsWith("DAY#")).length;

describe("1. the 100-item limit counts the day totals", () => {
  it("97 awards of one day then 3 of another: the new day is an item, so the split comes before it", async ({
    env,
  }) => {
    const deps = depsFor(env, { REWARDS_DAILY_XP_CAP: "100000" });
    const sent = transactions(deps.dynamo);
    const user = newUser("days-split");
    const now = Date.now();
    const yesterday = now - DAY_MS;
    const bodies = [
      ...Array.from({ length: 97 }, (_, i) => completedAt(user, `y-${i}`, yesterday)),
      ...Array.from({ length: 3 }, (_, i) => completedAt(user, `t-${i}`, now)),
    ];
    const { counts } = await run(deps, bodies);
    expect(counts).toEqual({ awarded: 100, duplicate: 0, parked: 0, failed: 0, capped: 0 });
    // 97 guards + profile + 1 day = 99; the 98th award would need 98 + 1 + 2 = 101.
    expect(sent().map((t) => t.TransactItems.length)).toEqual([99, 5]);
    expect(sent().map(daysIn)).toEqual([1, 1]);
    for (const transaction of sent()) expect(transaction.TransactItems.length).toBeLessThanOrEqual(100);
    expect(await profile(env, user)).toMatchObject({ xp: 2000, awards: 100 });
    expect(await dayXp(env, user, dayOf(yesterday))).toBe(97 * 20);
    expect(await dayXp(env, user, dayOf(now))).toBe(3 * 20);
  });

  it("awardTogether, 150 awards over three days, interleaved: 96 + profile + 3 days, then the rest", async ({
    env,
  }) => {
    const client = reader(env);
    const sent = transactions(client);
    const user = newUser("three-days");
    const now = Date.now();
    const awards: AwardRequest[] = Array.from({ length: 150 }, (_, i) => {
      const at = now - (i % 3) * DAY_MS;
      const decoded = decodeEvent(completedAt(user, `s-${i}`, at));
      if (!decoded.ok) throw new Error("a test event did not decode");
      return { ...decoded.award, messageId: `m-${user}-${i}`, earnedOn: dayOf(at) };
    });
    const outcomes = await awardTogether(
      { client, tableName: env.TABLE_NAME as string, clock: Date.now, dailyCap: 100_000 },
      awards,
    );
    expect(outcomes).toEqual(awards.map(() => ({ outcome: "awarded", xp: 20, attempts: 1 })));
    expect(sent().map((t) => t.TransactItems.length)).toEqual([100, 58]);
    expect(sent().map(daysIn)).toEqual([3, 3]);
    expect(await profile(env, user)).toMatchObject({ xp: 3000, awards: 150 });
    for (const back of [0, 1, 2]) expect(await dayXp(env, user, dayOf(now - back * DAY_MS))).toBe(50 * 20);
  });
});

describe("2. a lost answer under the cap reports what the cap let it pay", () => {
  it("its own guards recognised after a partial cancellation: XP reported = guard amount = profile delta, in results, logs and metrics", async ({
    env,
  }) => {
    const cap = { REWARDS_DAILY_XP_CAP: "50" };
    const user = newUser("lost-capped");
    // Earlier today: 20 + 5 paid, the day at 25.
    const earlier = depsFor(env, cap);
    const before = await run(earlier, [completed(user, "p"), shared(user, "x", "mail")]);
    expect(before.counts).toEqual({ awarded: 2, duplicate: 0, parked: 0, failed: 0, capped: 0 });

    const deps = depsFor(env, cap);
    forgetTokens(deps.dynamo);
    // T0 [p, b, c, d] is cancelled (p paid, the day's total 25); T1 [b, c, d] pays 20, 5, 0 —
    // it commits and its answer is lost; the retry meets this attempt's own three guards.
    const sent = transactions(deps.dynamo, (attempt, index) =>
      attempt.command === "TransactWriteItemsCommand" && index === 1 ? { kind: "drop" } : { kind: "pass" },
    );
    const { results, counts } = await run(deps, [
      completed(user, "p"),
      completed(user, "b"),
      completed(user, "c"),
      completed(user, "d"),
    ]);
    expect(sent().length).toBeGreaterThanOrEqual(3);
    expect(sent().every((t) => t.ClientRequestToken === undefined)).toBe(true);
    expect(results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([
      ["duplicate", undefined, undefined],
      ["awarded", 20, LOST_ANSWER_OWN],
      ["awarded", 5, LOST_ANSWER_OWN],
      ["capped", undefined, LOST_ANSWER_OWN],
    ]);
    const expected = { awarded: 2, duplicate: 1, parked: 0, failed: 0, capped: 1 };
    expect(counts).toEqual(expected);

    // What the cap let the attempt pay: the guards' amounts, the profile's delta.
    const amounts = await Promise.all(
      ["b", "c", "d"].map(async (slug) => guardFor(env, [user, slug, "article.completed"])),
    );
    expect(amounts.map((g) => [g?.amount, g?.requested])).toEqual([
      [20, undefined],
      [5, 20],
      [0, 20],
    ]);
    const reported = results.reduce((sum, r) => sum + (r.xp ?? 0), 0);
    expect(reported).toBe(25);
    expect(await profile(env, user)).toMatchObject({ xp: 25 + reported, awards: 5 });
    expect(await dayXp(env, user, dayOf(Date.now()))).toBe(50);

    // The logs: a debug line per message with its XP, the batch line's counts.
    const messages = deps.lines.filter((line) => line.msg === "message");
    expect(messages.map((line) => [line.outcome, line.xp])).toEqual([
      ["duplicate", undefined],
      ["awarded", 20],
      ["awarded", 5],
      ["capped", undefined],
    ]);
    expect(deps.lines.find((line) => line.msg === "batch")).toMatchObject({ size: 4, ...expected });
    // The metrics (what CloudWatch reads, and what `rewards worker --json`, the demo and the soak add up).
    expect(deps.metrics).toHaveLength(1);
    expect(JSON.parse(deps.metrics[0] as string)).toMatchObject(expected);
    // What the demo, the soak and `rewards worker --json` count: the function's metrics lines, added up.
    const stats = new WorkerStats();
    for (const line of [...earlier.metrics, ...deps.metrics]) expect(stats.recordOutput(line)).toBe(true);
    expect(stats.outcomes).toEqual({ awarded: 2 + 2, duplicate: 1, parked: 0, failed: 0, capped: 1 });
  });

  it("the same message at the same instant (a pinned clock): its own guard's amount is reported, not this plan's", async ({
    env,
  }) => {
    const cap = { REWARDS_DAILY_XP_CAP: "50" };
    const user = newUser("same-instant-capped");
    await run(depsFor(env, cap), [completed(user, "a"), completed(user, "b")]);
    const pinned = Date.now();
    const deps = { ...depsFor(env, cap), clock: () => pinned };
    const record = sqsRecord(completed(user, "c"));
    // The day is at 40: the first delivery pays 10 of 20 (one extra round trip for the cap).
    const first = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(first.results.map((r) => [r.outcome, r.xp])).toEqual([["awarded", 10]]);
    // The same message at the same instant plans 20 again (it does not know the day), meets the
    // guard it wrote — this record's message id and awardedAt — and reports what that paid.
    const again = await processBatch(deps, sqsEvent([record]), lambdaContext());
    expect(again.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([["awarded", 10, LOST_ANSWER_OWN]]);
    expect(await guardFor(env, [user, "c", "article.completed"])).toMatchObject({
      amount: 10,
      requested: 20,
    });
    expect(await profile(env, user)).toMatchObject({ xp: 50, awards: 3 });
  });
});

describe("3. a record is known by its place in the run", () => {
  it("after a partial cancellation, with a copy: each record gets its own outcome and XP", async ({
    env,
  }) => {
    const user = newUser("places");
    const today = dayOf(Date.now());
    await run(depsFor(env), [completed(user, "p")]);
    const deps = depsFor(env);
    const sent = transactions(deps.dynamo);
    const { results, counts } = await run(deps, [
      completed(user, "p"),
      completed(user, "a"),
      shared(user, "b", "mail"),
      completed(user, "a"),
      streak(user, today),
    ]);
    expect(results.map((r) => [r.outcome, r.xp])).toEqual([
      ["duplicate", undefined],
      ["awarded", 20],
      ["awarded", 5],
      ["duplicate", undefined],
      ["awarded", 10],
    ]);
    expect(counts).toEqual({ awarded: 3, duplicate: 2, parked: 0, failed: 0 });
    // Four distinct intents and the profile; then the three that were new and the profile.
    expect(sent().map((t) => t.TransactItems.length)).toEqual([5, 4]);
    expect(await profile(env, user)).toMatchObject({ xp: 20 + 20 + 5 + 10, awards: 4 });
  });

  it("a run of several transactions, each partly cancelled, with copies across them: the right record's outcome", async ({
    env,
  }) => {
    const user = newUser("runs");
    const today = dayOf(Date.now());
    await run(depsFor(env), [completed(user, "p1"), shared(user, "p2", "mail")]);
    const deps = depsFor(env);
    const sent = transactions(deps.dynamo);
    const news = Array.from({ length: 98 }, (_, i) => `n-${i}`);
    const bodies = [
      completed(user, "p1"), // paid before: cancels the first transaction
      ...news.map((slug) => completed(user, slug)),
      completed(user, "n-0"), // a copy of an intent of the first run
      shared(user, "s", "web"),
      shared(user, "p2", "mail"), // paid before: cancels the second run's first transaction
      streak(user, today),
      shared(user, "s", "web"), // a copy of an intent of the second run
    ];
    const { results, counts } = await run(deps, bodies);
    expect(results.map((r) => [r.outcome, r.xp])).toEqual([
      ["duplicate", undefined],
      ...news.map(() => ["awarded", 20]),
      ["duplicate", undefined],
      ["awarded", 5],
      ["duplicate", undefined],
      ["awarded", 10],
      ["duplicate", undefined],
    ]);
    expect(counts).toEqual({ awarded: 100, duplicate: 4, parked: 0, failed: 0 });
    // Run one: 99 guards + profile, then the 98 new ones + profile; run two: 3 + 1, then 2 + 1.
    expect(sent().map((t) => t.TransactItems.length)).toEqual([100, 99, 4, 3]);
    expect(await profile(env, user)).toMatchObject({ xp: 25 + 98 * 20 + 5 + 10, awards: 2 + 100 });
    expect(results[0]?.messageId).not.toBe(results[99]?.messageId);
  });
});
