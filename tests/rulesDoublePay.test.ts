import { randomUUID } from "node:crypto";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import {
  checkRulesChange,
  memoryOf,
  type RulesDocument,
  rulesDigest,
  rulesPointerKey,
  rulesVersionKey,
} from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient, createRulesSource } from "@rewards/core/aws";
import { createTable } from "@rewards/local";
import { publishRules } from "@rewards/ops";
import { eventBody, lambdaContext, rulesWith, sqsEvent, sqsRecord, stackTest } from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import { describe, expect } from "vitest";

/**
 * Each double payment the change checks prevent (docs/rules.md#what-a-new-version-may-not-change),
 * shown happening on the local stack when a version is written past them (put by hand, as a
 * publisher without the checks would), and refused by `publishRules`.
 */
const it = stackTest();
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function setUp(env: Record<string, string>) {
  const tableName = `double-${randomUUID().slice(0, 8)}`;
  const base = createDynamoBaseClient(env);
  await createTable(base, tableName);
  base.destroy();
  const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
  const start = Date.now();
  let now = start;
  let version = 0;
  let current: RulesDocument = rulesWith();
  let longest = memoryOf(current);
  /** A version put as the publisher would, without the change checks: V# and CURRENT in one go. */
  const putUnchecked = async (
    document: RulesDocument,
    longestMemory = { ...longest, ...memoryOf(document) },
  ) => {
    version++;
    const digest = rulesDigest(document);
    const publishedAt = iso(now);
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...rulesVersionKey(version), version, document, digest, publishedAt, longestMemory },
            },
          },
          { Put: { TableName: tableName, Item: { ...rulesPointerKey(), version, digest, publishedAt } } },
        ],
      }),
    );
    current = document;
    longest = longestMemory;
  };
  /** What the checks say of `document` against the version in force. */
  const refused = (document: RulesDocument) =>
    checkRulesChange(document, { current, longestMemory: longest, now }).problems.map(
      (problem) => problem.path,
    );
  /** A worker on the test's clock whose rules are read afresh (a new function). */
  const worker = (): WorkerDeps => ({
    ...createWorkerDeps({ ...env, TABLE_NAME: tableName, LOG_LEVEL: "silent" }),
    clock: () => now,
    emitMetrics: () => {},
    rules: createRulesSource({ dynamo, tableName, refreshSeconds: 30, clock: () => now }),
  });
  const pay = async (deps: WorkerDeps, body: string) =>
    (await processBatch(deps, sqsEvent([sqsRecord(body)]), lambdaContext())).results[0];
  return {
    dynamo,
    tableName,
    start,
    putUnchecked,
    refused,
    worker,
    pay,
    advance: (ms: number) => {
      now += ms;
    },
    publish: (document: RulesDocument) => publishRules(dynamo, tableName, document, { now }),
  };
}

const withType = (type: string, rule: Record<string, unknown>) =>
  rulesWith((rules) => {
    rules.types[type] = rule;
  });

describe("the double payments the change checks prevent", () => {
  it("a key field's kind changed: one reading, written two ways, is two intents", async ({ env }) => {
    const t = await setUp(env);
    const chapter = (kind: "string" | "integer") => ({
      data: {
        chapter: kind === "string" ? { type: "string", maxLength: 8 } : { type: "integer", minimum: 0 },
      },
      key: ["chapter"],
      xp: 5,
      memory: 30,
    });
    await t.putUnchecked(withType("chapter.read", chapter("string")));
    const user = `kind-${randomUUID()}`;
    expect(await t.pay(t.worker(), eventBody("chapter.read", { userId: user, chapter: "03" }))).toMatchObject(
      {
        outcome: "awarded",
      },
    );
    const integer = withType("chapter.read", chapter("integer"));
    expect(t.refused(integer)).toEqual(['types["chapter.read"].data.chapter.type']);
    await t.putUnchecked(integer);
    // Chapter 3 again, as the new kind writes it: another key, paid again.
    expect(await t.pay(t.worker(), eventBody("chapter.read", { userId: user, chapter: 3 }))).toMatchObject({
      outcome: "awarded",
    });
  });

  it("memory grown past the longest: a replay whose guard is gone pays again", async ({ env }) => {
    const t = await setUp(env);
    const quiz = (memory: number) => ({ data: { quiz: { type: "string" } }, key: ["quiz"], xp: 5, memory });
    await t.putUnchecked(withType("quiz.passed", quiz(2)));
    const user = `memory-${randomUUID()}`;
    const body = eventBody("quiz.passed", { userId: user, quiz: "q1" }, { time: iso(t.start) });
    expect(await t.pay(t.worker(), body)).toMatchObject({ outcome: "awarded" });
    // Three days on the guard has expired; under a 2-day memory the replay is stale, never paid.
    t.advance(3 * DAY);
    expect(await t.pay({ ...t.worker(), dlqUrl: undefined }, body)).toMatchObject({
      outcome: "failed",
      parkCode: "stale",
    });
    const grown = withType("quiz.passed", quiz(30));
    expect(t.refused(grown)).toEqual(['types["quiz.passed"].memory']);
    await t.putUnchecked(grown);
    expect(await t.pay(t.worker(), body)).toMatchObject({ outcome: "awarded" });
  });

  it("the day field dropped: a copy about an old day, sent now, is judged on its fresh time and pays again", async ({
    env,
  }) => {
    const t = await setUp(env);
    // Without its `day`, a key field of kind day is refused by the document's own checks: the field
    // becomes text (the same key for the same day) and the day is no longer what ages.
    const visit = (withDay: boolean) => ({
      data: { day: withDay ? { type: "day" } : { type: "string", maxLength: 10 } },
      key: ["day"],
      xp: 5,
      memory: 2,
      ...(withDay ? { day: "day" } : {}),
    });
    await t.putUnchecked(withType("site.visited", visit(true)));
    const user = `day-${randomUUID()}`;
    const day = iso(t.start).slice(0, 10);
    expect(
      await t.pay(t.worker(), eventBody("site.visited", { userId: user, day }, { time: iso(t.start) })),
    ).toMatchObject({ outcome: "awarded" });
    t.advance(5 * DAY);
    // A copy sent five days later with a fresh time: its day is too old to judge.
    const copy = eventBody("site.visited", { userId: user, day }, { time: iso(t.start + 5 * DAY) });
    expect(await t.pay({ ...t.worker(), dlqUrl: undefined }, copy)).toMatchObject({ parkCode: "stale" });
    const dropped = withType("site.visited", visit(false));
    expect(t.refused(dropped)).toEqual(['types["site.visited"].data.day.type', 'types["site.visited"].day']);
    await t.putUnchecked(dropped);
    expect(await t.pay(t.worker(), copy)).toMatchObject({ outcome: "awarded" });
  });

  it("a function still on an older version after a shrink: a guard that lived only the new memory is gone for it", async ({
    env,
  }) => {
    const t = await setUp(env);
    const poll = (memory: number) => ({ data: { poll: { type: "string" } }, key: ["poll"], xp: 5, memory });
    await t.putUnchecked(withType("poll.answered", poll(30)));
    // The function still on version 1 (30 days), warm: read now, and not read again here.
    const behind = createRulesSource({
      dynamo: t.dynamo,
      tableName: t.tableName,
      refreshSeconds: 30,
      clock: () => t.start,
    });
    expect((await behind.forBatch()).version.version).toBe(1);
    // Version 2 shrinks the memory to 2 days. Published as the checks do, its guards live for the
    // longest memory ever (30 days); written without that rule, for 2.
    const shrunk = withType("poll.answered", poll(2));
    expect(t.refused(shrunk)).toEqual([]);
    await t.putUnchecked(shrunk, memoryOf(shrunk));
    const user = `shrink-${randomUUID()}`;
    const body = eventBody("poll.answered", { userId: user, poll: "p1" }, { time: iso(t.start) });
    expect(await t.pay(t.worker(), body)).toMatchObject({ outcome: "awarded" });
    t.advance(5 * DAY);
    // Version 1's 30 days still cover the replay, but the guard lived 2: paid again.
    expect(await t.pay({ ...t.worker(), rules: behind }, body)).toMatchObject({ outcome: "awarded" });
  });
});
