import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { dayTotalKey, intentKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import {
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
import type { SQSRecord } from "aws-lambda";
import { describe, expect, onTestFinished } from "vitest";

/**
 * Two more kinds of bug in the coalesced award path that got through with every test green
 * (issue 43), pinned through the handler against the local stack:
 * 1. a record that meets its own guard (the lost-answer rule: this record's `messageId` and this
 *    attempt's `awardedAt`, docs/awards.md "Reading a cancellation") reports what that guard
 *    paid under the daily cap — capped to 0, cut, or in full — never the rule's XP nor what the
 *    transaction just cancelled planned;
 * 2. in a run of three and more transactions, each partly cancelled by guards that other
 *    writers put in between, the records that go again are picked by their place in the run,
 *    not their place in the transaction just cancelled.
 */
const it = stackTest();
let seq = 0;
const newUser = (label: string) => `${label}-${++seq}`;
const LOST_ANSWER_OWN =
  "an earlier attempt committed but its answer was lost; the guard it wrote is this attempt's";

const depsFor = (env: Record<string, string>, extra: Record<string, string> = {}): WorkerDeps => ({
  ...createWorkerDeps({ ...env, LOG_LEVEL: "silent", ...extra }),
  emitMetrics: () => {},
  retryPolicy: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2000 },
});
const runRecords = (deps: WorkerDeps, records: SQSRecord[]) =>
  processBatch(deps, sqsEvent(records), lambdaContext());
const run = (deps: WorkerDeps, bodies: string[]) =>
  runRecords(
    deps,
    bodies.map((body) => sqsRecord(body)),
  );

interface SentTransaction {
  TransactItems: Array<{ Put?: { Item: { pk: { S: string } } } }>;
}

/** Every TransactWriteItems a client sends (each HTTP attempt), as parsed request bodies. */
function transactionsSent(client: unknown) {
  const attempts = recordAttempts(client);
  return () =>
    attempts
      .filter((attempt) => attempt.command === "TransactWriteItemsCommand")
      .map((attempt) => JSON.parse(attempt.body) as SentTransaction);
}
const sizesOf = (sent: SentTransaction[]) => sent.map((t) => t.TransactItems.length);
/** The article slugs of one user's article.completed guards a transaction holds, in its order. */
const slugsOf = (userId: string, sent: SentTransaction[]) =>
  sent.map((t) =>
    t.TransactItems.flatMap((item) =>
      item.Put ? [item.Put.Item.pk.S.slice(`IDEM#${userId}#`.length, -"#article.completed".length)] : [],
    ),
  );

/** What the table holds for one user: guards, profile and day totals, read consistently. */
function tableOf(env: Record<string, string>, userId: string) {
  const doc: DynamoDBDocumentClient = createDynamoClient(env);
  onTestFinished(() => doc.destroy());
  const tableName = env.TABLE_NAME as string;
  return {
    guard: (parts: string[]) => guardOf(doc, tableName, intentKey(parts)),
    profile: () => profileOf(doc, tableName, userId),
    day: async (day: string) =>
      (
        await doc.send(
          new GetCommand({ TableName: tableName, Key: dayTotalKey(userId, day), ConsistentRead: true }),
        )
      ).Item?.xp,
  };
}

describe("1. a record's own guard under the daily cap reports what that guard paid (docs/awards.md, Reading a cancellation; The daily cap)", () => {
  const CAP = { REWARDS_DAILY_XP_CAP: "50" };
  /**
   * Every event of a test at one instant a second before the pinned clock: one UTC day for all,
   * whenever the test runs (a run across midnight cannot split them).
   */
  function instants() {
    const pinned = Date.now();
    const at = new Date(pinned - 1000).toISOString();
    return { pinned, day: at.slice(0, 10), body: (userId: string, slug: string) => body(userId, slug, at) };
  }
  const body = (userId: string, articleSlug: string, time: string) =>
    eventBody("article.completed", { userId, articleSlug }, { time });

  it("capped to 0: a second delivery at the same instant plans the rule's 20, meets its own 0-XP guard and is capped", async ({
    env,
  }) => {
    const { pinned, day, body: completedAt } = instants();
    const user = newUser("own-capped");
    const table = tableOf(env, user);
    // Earlier today: 20 + 20 + 10 of 20 — the day is full.
    const earlier = await run(
      // Stamped before the pinned clock, as a reader's earlier commits are.
      { ...depsFor(env, CAP), clock: () => pinned - 500 },
      ["a", "b", "c"].map((slug) => completedAt(user, slug)),
    );
    expect(earlier.results.map((r) => [r.outcome, r.xp])).toEqual([
      ["awarded", 20],
      ["awarded", 20],
      ["awarded", 10],
    ]);
    const deps = { ...depsFor(env, CAP), clock: () => pinned };
    const record = sqsRecord(completedAt(user, "r"));
    // The first delivery plans 20, learns the day's 50 from the cancellation and pays 0: the guard is written.
    const first = await runRecords(deps, [record]);
    expect(first.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([["capped", undefined, undefined]]);
    // The same message at the same instant plans the rule's 20 again (it does not know the day),
    // meets the guard it wrote (its message id, this awardedAt): capped, as that guard paid 0.
    const sent = transactionsSent(deps.dynamo);
    const again = await runRecords(deps, [record]);
    expect(again.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([
      ["capped", undefined, LOST_ANSWER_OWN],
    ]);
    expect(again.counts).toEqual({ awarded: 0, duplicate: 0, parked: 0, failed: 0, capped: 1 });
    // One transaction, cancelled by its own guard and the day: nothing goes again.
    expect(sizesOf(sent())).toEqual([3]);
    expect(await table.guard([user, "r", "article.completed"])).toMatchObject({
      amount: 0,
      requested: 20,
      messageId: record.messageId,
      awardedAt: new Date(pinned).toISOString(),
    });
    expect(await table.profile()).toMatchObject({ xp: 50, awards: 4 });
    expect(await table.day(day)).toBe(50);
  });

  it("cut: a second delivery at the same instant plans 20, meets its own guard that paid 10 of 20, reports 10", async ({
    env,
  }) => {
    const { pinned, day, body: completedAt } = instants();
    const user = newUser("own-cut");
    const table = tableOf(env, user);
    await run(
      { ...depsFor(env, CAP), clock: () => pinned - 500 },
      ["a", "b"].map((slug) => completedAt(user, slug)),
    );
    const deps = { ...depsFor(env, CAP), clock: () => pinned };
    const record = sqsRecord(completedAt(user, "r"));
    // The day at 40: the first delivery pays 10 of 20.
    const first = await runRecords(deps, [record]);
    expect(first.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([["awarded", 10, undefined]]);
    const again = await runRecords(deps, [record]);
    expect(again.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([["awarded", 10, LOST_ANSWER_OWN]]);
    expect(again.counts).toEqual({ awarded: 1, duplicate: 0, parked: 0, failed: 0, capped: 0 });
    expect(await table.guard([user, "r", "article.completed"])).toMatchObject({
      amount: 10,
      requested: 20,
      messageId: record.messageId,
    });
    // Paid once: the profile's delta and the day's are the guard's 10.
    expect(await table.profile()).toMatchObject({ xp: 50, awards: 3 });
    expect(await table.day(day)).toBe(50);
  });

  it("in full: redelivered at the same instant behind two new awards that take the plan's room, it plans 10, meets its own guard of 20 and reports 20", async ({
    env,
  }) => {
    const { pinned, day, body: completedAt } = instants();
    const user = newUser("own-full");
    const table = tableOf(env, user);
    const deps = { ...depsFor(env, CAP), clock: () => pinned };
    const record = sqsRecord(completedAt(user, "r"));
    // A new day: the first delivery pays 20 in full (no `requested` on its guard).
    const first = await runRecords(deps, [record]);
    expect(first.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([["awarded", 20, undefined]]);
    // Redelivered in the same millisecond, after two new awards of the same user and day: the plan,
    // made without the day's total, gives n1 20, n2 20 and r what is left of 50: 10. The cancellation
    // says r's guard is its own (20 paid) and the day is at 20: n1 and n2 go again with 20 and 10.
    const sent = transactionsSent(deps.dynamo);
    const n1 = sqsRecord(completedAt(user, "n1"));
    const n2 = sqsRecord(completedAt(user, "n2"));
    const again = await runRecords(deps, [n1, n2, record]);
    expect(again.results.map((r) => [r.outcome, r.xp, r.detail])).toEqual([
      ["awarded", 20, undefined],
      ["awarded", 10, undefined],
      ["awarded", 20, LOST_ANSWER_OWN],
    ]);
    expect(slugsOf(user, sent())).toEqual([
      ["n1", "n2", "r"],
      ["n1", "n2"],
    ]);
    expect(sizesOf(sent())).toEqual([5, 4]);
    const guard = await table.guard([user, "r", "article.completed"]);
    expect(guard).toMatchObject({ amount: 20, messageId: record.messageId });
    expect(guard?.requested).toBeUndefined();
    expect(await table.guard([user, "n2", "article.completed"])).toMatchObject({ amount: 10, requested: 20 });
    // r paid once: 20 by its first delivery, then n1's 20 and n2's 10.
    expect(await table.profile()).toMatchObject({ xp: 50, awards: 3 });
    expect(await table.day(day)).toBe(50);
  });
});

/**
 * Before the worker's k-th TransactWriteItems (k from 0), `racers[k]` runs and is awaited:
 * another writer's award landing between two transactions of one run.
 */
function raceBefore(client: unknown, racers: ReadonlyMap<number, () => Promise<unknown>>): void {
  let sent = 0;
  (
    client as {
      middlewareStack: {
        add: (
          m: (
            next: (args: unknown) => Promise<unknown>,
            context: { commandName?: string },
          ) => (args: unknown) => Promise<unknown>,
          o: { step: "initialize"; name: string },
        ) => void;
      };
    }
  ).middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === "TransactWriteItemsCommand") await racers.get(sent++)?.();
      return next(args);
    },
    { step: "initialize", name: "raceBefore" },
  );
}

interface Layout {
  name: string;
  /** The batch, in order: slugs of one user's article.completed (a slug twice is a copy). */
  batch: string[];
  /** Paid before the batch: they cancel the run's first transaction. */
  paid: string[];
  /** Before transaction k + 1, another writer pays `raced[k]`: each later transaction is cancelled by it. */
  raced: string[];
}

const LAYOUTS: Layout[] = [
  {
    name: "paid first; raced in the middle, then last",
    batch: ["p", "a", "b", "c", "d", "e"],
    paid: ["p"],
    raced: ["c", "e"],
  },
  {
    name: "paid in the middle; raced first, then in the middle; copies of a raced and of a paid-now intent",
    batch: ["a", "b", "p", "c", "d", "e", "f", "d", "b"],
    paid: ["p"],
    raced: ["a", "d"],
  },
  {
    name: "paid last; raced in the middle, first, then last (five transactions)",
    batch: ["a", "b", "c", "d", "e", "p"],
    paid: ["p"],
    raced: ["c", "a", "e"],
  },
];

describe("2. runs of three and more transactions, each partly cancelled: a record is known by its place in the run (docs/awards.md, Reading a cancellation)", () => {
  for (const { name, batch, paid, raced } of LAYOUTS)
    it(`${name}: each record its own outcome, each intent paid once`, async ({ env }) => {
      const user = newUser("race");
      const table = tableOf(env, user);
      const completed = (slug: string) => eventBody("article.completed", { userId: user, articleSlug: slug });
      await run(
        depsFor(env),
        paid.map((slug) => completed(slug)),
      );
      const deps = depsFor(env);
      const sent = transactionsSent(deps.dynamo);
      // Another worker pays one intent of the run between each two of our transactions.
      const racer = depsFor(env);
      const racerRecords = new Map(raced.map((slug) => [slug, sqsRecord(completed(slug))]));
      const racerOutcomes: string[] = [];
      raceBefore(
        deps.dynamo,
        new Map(
          raced.map((slug, k) => [
            k + 1,
            async () => {
              const { results } = await runRecords(racer, [racerRecords.get(slug) as SQSRecord]);
              racerOutcomes.push(...results.map((r) => `${slug}: ${r.outcome}`));
            },
          ]),
        ),
      );
      const records = batch.map((slug) => sqsRecord(completed(slug)));
      const { results, counts } = await runRecords(deps, records);

      // The first transaction holds every distinct intent, in order; each later one, those not
      // yet found paid — the one raced before it among them — and never a record already settled.
      const distinct = [...new Set(batch)];
      const expectedTransactions = [distinct, distinct.filter((slug) => !paid.includes(slug))];
      for (const slug of raced)
        expectedTransactions.push(
          (expectedTransactions.at(-1) as string[]).filter((other) => other !== slug),
        );
      expect(slugsOf(user, sent())).toEqual(expectedTransactions);
      expect(sizesOf(sent())).toEqual(expectedTransactions.map((guards) => guards.length + 1));
      // Each racer paid its intent while it was still pending in our run.
      expect(racerOutcomes).toEqual(raced.map((slug) => `${slug}: awarded`));
      const taken = new Set([...paid, ...raced]);
      const seen = new Set<string>();
      const expected = batch.map((slug) => {
        const first = !seen.has(slug);
        seen.add(slug);
        return first && !taken.has(slug) ? ["awarded", 20] : ["duplicate", undefined];
      });
      expect(results.map((r) => r.messageId)).toEqual(records.map((r) => r.messageId));
      expect(results.map((r) => [r.outcome, r.xp])).toEqual(expected);
      const ours = new Set(batch.filter((slug) => !taken.has(slug)));
      expect(counts).toEqual({
        awarded: ours.size,
        duplicate: batch.length - ours.size,
        parked: 0,
        failed: 0,
      });

      // The table: every intent paid once, by the writer the outcomes say.
      for (const slug of distinct) {
        const guard = await table.guard([user, slug, "article.completed"]);
        const writer = raced.includes(slug)
          ? racerRecords.get(slug)?.messageId
          : paid.includes(slug)
            ? undefined
            : records[batch.indexOf(slug)]?.messageId;
        if (writer !== undefined) expect(guard?.messageId, slug).toBe(writer);
        else expect(guard?.messageId, slug).not.toBeOneOf(records.map((r) => r.messageId));
        expect(guard?.amount, slug).toBe(20);
      }
      expect(await table.profile()).toMatchObject({ xp: 20 * distinct.length, awards: distinct.length });
    });
});
