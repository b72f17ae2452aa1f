import { randomUUID } from "node:crypto";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { countAttribute, intentKey, type RulesDocument, rulesPointerKey } from "@rewards/core";
import {
  createDynamoBaseClient,
  createDynamoClient,
  createRulesSource,
  createSqsClient,
} from "@rewards/core/aws";
import { createTable } from "@rewards/local";
import { publishRules, revokeLines } from "@rewards/ops";
import {
  eventBody,
  guardOf,
  lambdaContext,
  profileOf,
  rulesWith,
  runCli,
  sqsEvent,
  sqsRecord,
  stackTest,
} from "@rewards/testing";
import { createWorkerDeps, processBatch, type WorkerDeps } from "@rewards/worker";
import { describe, expect } from "vitest";

/**
 * The worker judging by the rules published to the table (docs/rules.md#at-run-time), on the
 * local stack with the real SDK. Each test has a table of its own: a version published to the
 * stack's shared table would change every other test's pay.
 */
const it = stackTest();
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A version that changes nothing the tests pay: one more type. */
const withComments = rulesWith((rules) => {
  rules.types["comment.posted"] = {
    data: { comment: { type: "string", maxLength: 64 } },
    key: ["comment"],
    xp: 2,
    memory: 30,
  };
});

const PODCAST = {
  data: {
    episode: { type: "string", maxLength: 64 },
    minutes: { type: "integer", minimum: 0, maximum: 600 },
  },
  key: ["episode"],
  xp: { per: "minutes", each: 1, max: 60 },
  memory: 30,
};

async function setUp(env: Record<string, string>) {
  const tableName = `rules-worker-${randomUUID().slice(0, 8)}`;
  const base = createDynamoBaseClient(env);
  await createTable(base, tableName);
  base.destroy();
  const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
  const start = Date.now();
  let now = start;
  const publish = async (document: RulesDocument) => {
    const result = await publishRules(dynamo, tableName, document, { now });
    if (result.kind !== "published") throw new Error(`not published: ${result.kind}`);
    return result.version;
  };
  /** The worker as deployed (createWorkerDeps), its rules read on the test's clock. */
  const worker = (): WorkerDeps => {
    const deps = createWorkerDeps({ ...env, TABLE_NAME: tableName, LOG_LEVEL: "silent" });
    return {
      ...deps,
      clock: () => now,
      emitMetrics: () => {},
      rules: createRulesSource({ dynamo, tableName, refreshSeconds: 30, clock: () => now }),
    };
  };
  const run = (deps: WorkerDeps, bodies: string[]) =>
    processBatch(deps, sqsEvent(bodies.map((body) => sqsRecord(body))), lambdaContext());
  return {
    dynamo,
    tableName,
    start,
    publish,
    worker,
    run,
    advance: (ms: number) => {
      now += ms;
    },
    profile: (userId: string) => profileOf(dynamo, tableName, userId),
    guard: (parts: string[]) => guardOf(dynamo, tableName, intentKey(parts)),
  };
}

describe("the worker pays by the version in force", () => {
  it("a per-unit type, a campaign on event time and the facts each guard records", async ({ env }) => {
    const t = await setUp(env);
    // The campaign opens an hour after the publish: events before it pay the base.
    const version = await t.publish(
      rulesWith((rules) => {
        rules.types["podcast.listened"] = PODCAST;
        rules.campaigns.push({
          id: "double-podcasts",
          title: "Double XP on podcasts",
          types: ["podcast.listened"],
          from: iso(t.start + 60 * MINUTE),
          to: iso(t.start + 180 * MINUTE),
          multiplier: 2,
        });
      }),
    );
    expect(version).toBe(1);
    t.advance(120 * MINUTE);
    const user = `pod-${randomUUID()}`;
    const before = eventBody(
      "podcast.listened",
      { userId: user, episode: "e1", minutes: 25 },
      { time: iso(t.start + 30 * MINUTE) },
    );
    const during = eventBody(
      "podcast.listened",
      { userId: user, episode: "e2", minutes: 40 },
      { time: iso(t.start + 90 * MINUTE) },
    );
    // Paid past its max: 1 XP a minute, at most 60, doubled by the campaign.
    const long = eventBody(
      "podcast.listened",
      { userId: user, episode: "e3", minutes: 500 },
      { time: iso(t.start + 100 * MINUTE) },
    );
    const deps = t.worker();
    const { results } = await t.run(deps, [before, during, long]);
    expect(results.map((result) => [result.outcome, result.xp])).toEqual([
      ["awarded", 25],
      ["awarded", 80],
      ["awarded", 120],
    ]);
    expect(await t.guard([user, "e1", "podcast.listened"])).toMatchObject({
      rulesVersion: 1,
      units: 25,
      amount: 25,
      capped: true,
    });
    expect((await t.guard([user, "e1", "podcast.listened"]))?.campaign).toBeUndefined();
    expect(await t.guard([user, "e2", "podcast.listened"])).toMatchObject({
      rulesVersion: 1,
      units: 40,
      amount: 80,
      campaign: "double-podcasts",
    });
    expect(await t.profile(user)).toMatchObject({
      xp: 225,
      awards: 3,
      [countAttribute("podcast.listened")]: 3,
    });

    // A later copy with other units is a duplicate: paid once, by the committing copy, and counted.
    let counts: Record<string, number> = {};
    const copy = eventBody(
      "podcast.listened",
      { userId: user, episode: "e2", minutes: 45 },
      { time: iso(t.start + 95 * MINUTE) },
    );
    const again = await t.run({ ...deps, emitMetrics: (line) => (counts = JSON.parse(line)) }, [copy]);
    expect(again.results.map((result) => [result.outcome, result.paidUnits])).toEqual([["duplicate", 40]]);
    expect(counts).toMatchObject({ duplicate: 1, unitsDiffer: 1 });
    expect((await t.profile(user))?.xp).toBe(225);

    // The operators' commands key a site's type as the worker does.
    const shown = await runCli(["guard", "podcast.listened", `userId=${user}`, "episode=e2", "--json"], {
      ...env,
      TABLE_NAME: t.tableName,
    });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ type: "podcast.listened", amount: 80 });
    const [revoked] = await revokeLines([copy], {
      dynamo: t.dynamo,
      tableName: t.tableName,
      reason: "test",
      dryRun: false,
      // The worker's clock here runs two hours ahead: a revocation is stamped after its award.
      clock: () => t.start + 121 * MINUTE,
    });
    expect(revoked).toMatchObject({
      verdict: "revoked",
      intentKey: intentKey([user, "e2", "podcast.listened"]),
    });
    expect((await t.profile(user))?.xp).toBe(145);
  });

  it("a new version applies from the next batch read after it; a copy of an intent paid before stays a duplicate", async ({
    env,
  }) => {
    const t = await setUp(env);
    const deps = t.worker();
    const user = `next-${randomUUID()}`;
    const first = eventBody("article.completed", { userId: user, articleSlug: "a" });
    expect((await t.run(deps, [first])).results[0]).toMatchObject({ outcome: "awarded", xp: 20 });
    await t.publish(
      rulesWith((rules) => {
        (rules.types["article.completed"] as { xp: number }).xp = 25;
      }),
    );
    // Within the refresh period the function keeps version 0; past twice it, it reads first.
    t.advance(61_000);
    const copy = eventBody("article.completed", { userId: user, articleSlug: "a" });
    const next = eventBody("article.completed", { userId: user, articleSlug: "b" });
    const { results } = await t.run(deps, [copy, next]);
    expect(results.map((result) => [result.outcome, result.xp])).toEqual([
      ["duplicate", undefined],
      ["awarded", 25],
    ]);
    expect(await t.guard([user, "b", "article.completed"])).toMatchObject({ rulesVersion: 1, amount: 25 });
    // Version 0's guards stay as they were: no facts of a version on them.
    expect((await t.guard([user, "a", "article.completed"]))?.rulesVersion).toBeUndefined();
    expect((await t.profile(user))?.xp).toBe(45);
  });

  it("an unknown type is parked naming the version, then paid when its body comes back once a version defines it", async ({
    env,
    queues,
  }) => {
    const t = await setUp(env);
    await t.publish(withComments);
    const deps = { ...t.worker(), dlqUrl: queues.dlqUrl };
    const user = `quiz-${randomUUID()}`;
    const quiz = eventBody("quiz.passed", { userId: user, quiz: "q1" });
    const parked = await t.run(deps, [quiz]);
    expect(parked.results[0]).toMatchObject({ outcome: "parked", parkCode: "unknown_type" });
    expect(parked.results[0]?.detail).toBe('type: no reward rule for type "quiz.passed" in rules version 1');
    const sqs = createSqsClient(env);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queues.dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect(Messages.map((message) => message.Body)).toEqual([quiz]);

    await t.publish(
      rulesWith((rules) => {
        rules.types["comment.posted"] = withComments.types["comment.posted"] as Record<string, unknown>;
        rules.types["quiz.passed"] = {
          data: { quiz: { type: "string", maxLength: 64 } },
          key: ["quiz"],
          xp: 0,
          memory: 30,
        };
      }),
    );
    // The warm function's copy is fresh, yet an unknown type reads CURRENT once for its batch.
    t.advance(1000);
    const replayed = await t.run(deps, [Messages[0]?.Body as string]);
    // A rule that pays 0 is awarded 0 XP (and announced), never "capped".
    expect(replayed.results[0]).toMatchObject({ outcome: "awarded", xp: 0 });
    expect(await t.guard([user, "q1", "quiz.passed"])).toMatchObject({ rulesVersion: 2, amount: 0 });
    expect(await t.profile(user)).toMatchObject({ xp: 0, awards: 1, [countAttribute("quiz.passed")]: 1 });
  });

  it("a cold start onto a hand-edited CURRENT fails every record, never version 0", async ({ env }) => {
    const t = await setUp(env);
    await t.publish(withComments);
    await t.dynamo.send(
      new PutCommand({
        TableName: t.tableName,
        Item: { ...rulesPointerKey(), version: 1, digest: "0".repeat(64), publishedAt: iso(t.start) },
      }),
    );
    let counts: Record<string, number> = {};
    const deps = { ...t.worker(), emitMetrics: (line: string) => (counts = JSON.parse(line)) };
    const user = `cold-${randomUUID()}`;
    const { results, response } = await t.run(deps, [
      eventBody("article.completed", { userId: user, articleSlug: "a" }),
    ]);
    expect(results[0]).toMatchObject({ outcome: "failed", cause: "no_rules" });
    expect(response.batchItemFailures).toHaveLength(1);
    expect(counts).toMatchObject({ failed: 1, noRules: 1, rulesRejected: 1 });
    expect(await t.profile(user)).toBeUndefined();
  });

  it("a rules read that fails on a cold start (no such table) fails every record, naming the call", async ({
    env,
  }) => {
    const deps = {
      ...createWorkerDeps({ ...env, TABLE_NAME: "no-such-table", LOG_LEVEL: "silent" }),
      emitMetrics: () => {},
    };
    const { results } = await processBatch(
      deps,
      sqsEvent([sqsRecord(eventBody("article.completed", { userId: "u-1", articleSlug: "a" }))]),
      lambdaContext(),
    );
    expect(results[0]).toMatchObject({
      outcome: "failed",
      cause: "no_rules",
      call: { service: "DynamoDB", operation: "GetItem", resource: "table no-such-table" },
    });
    expect(results[0]?.detail).toMatch(
      /^no version of the rules to judge by: reading the rules failed: DynamoDB GetItem on table no-such-table/,
    );
  });
});
