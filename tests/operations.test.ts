import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReceiveMessageCommand, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { profileKey } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { queueCounts } from "@rewards/ops";
import {
  completed,
  eventBody,
  lambdaContext,
  runCli,
  sqsEvent,
  sqsRecord,
  stackTest,
  startCli,
  waitFor,
} from "@rewards/testing";
import { createWorkerDeps, processBatch } from "@rewards/worker";
import type { SQSMessageAttributes } from "aws-lambda";
import { describe, expect } from "vitest";

const it = stackTest({ visibilityTimeoutSeconds: 2 });
const cliIn = (env: Record<string, string>) => (args: string[], stdin?: string) => runCli(args, env, stdin);

/** Parks `records` the way the worker does (real processBatch against the test's queues). */
async function park(env: Record<string, string>, records: ReturnType<typeof sqsRecord>[]) {
  const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
  const { counts } = await processBatch(deps, sqsEvent(records), lambdaContext());
  expect(counts.parked).toBe(records.length);
}

const sqsOf = (env: Record<string, string>): SQSClient =>
  createSqsClient({ ...env, AWS_REGION: "us-east-1" });

async function receiveAll(sqs: SQSClient, queueUrl: string) {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      MessageAttributeNames: ["All"],
      WaitTimeSeconds: 0,
    }),
  );
  return Messages;
}

describe("the main queue and waiting for it", () => {
  it("queue stats shows visible, in flight and delayed; the oldest age needs CloudWatch", async ({ env }) => {
    const sqs = sqsOf(env);
    await sqs.send(new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: "a" }));
    await sqs.send(new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: "b", DelaySeconds: 30 }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: env.QUEUE_URL, VisibilityTimeout: 30 }));
    await sqs.send(new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: "c" }));
    const run = await cliIn(env)(["queue", "stats", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ visible: 1, inFlight: 1, delayed: 1, oldestAgeSeconds: null });
    expect((await cliIn(env)(["queue", "stats"])).stdout).toMatch(
      /oldest message +│ unknown \(needs CloudWatch/,
    );
  });

  it("load --wait and verify --wait wait for the worker, then verify exits 0; load --expect records the poison", async ({
    env,
  }) => {
    const file = join(tmpdir(), `expect-${Date.now()}.json`);
    const worker = startCli(["worker", "--wait", "1", "--timeout", "1", "--function", "artifact"], {
      ...env,
      LOG_LEVEL: "silent",
    });
    const cli = cliIn(env);
    const load = await cli([
      "load",
      "--events",
      "300",
      "--users",
      "10",
      "--invalid",
      "0.05",
      "--seed",
      "41",
      "--expect",
      file,
      "--wait",
      "--json",
    ]);
    expect(load.code).toBe(0);
    const expectation = JSON.parse(await readFile(file, "utf8"));
    expect(expectation.invalid).toBe(JSON.parse(load.stdout).invalid);
    expect(expectation.invalid).toBeGreaterThan(0);
    expect(await queueCounts(sqsOf(env), env.QUEUE_URL as string)).toEqual({
      visible: 0,
      inFlight: 0,
      delayed: 0,
    });
    const verify = await cli(["verify", "--expect", file, "--wait", "--timeout", "30"]);
    expect(verify).toMatchObject({ code: 0 });
    expect(verify.stdout).toMatch(/all match/);
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 60_000);

  it("verify --wait with no worker running fails after its timeout, saying what is left", async ({ env }) => {
    await sqsOf(env).send(
      new SendMessageCommand({ QueueUrl: env.QUEUE_URL, MessageBody: completed("w", "a") }),
    );
    const file = join(tmpdir(), `expect-none-${Date.now()}.json`);
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(file, JSON.stringify({ seed: 1, events: 1, uniqueIntents: 1, users: { w: 20 } })),
    );
    const verify = await cliIn(env)(["verify", "--expect", file, "--wait", "--timeout", "2"]);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(
      /did not drain within 2 s \(still 1 visible, 0 in flight, 0 delayed\): is a worker running\?/,
    );
  });
});

describe("the DLQ replay operators need", () => {
  it("filters by type, error and user; --dry-run moves nothing; what does not match is visible again at once", async ({
    env,
  }) => {
    await park(env, [
      sqsRecord(eventBody("article.completed", { userId: "ann" })), // invalid_event
      sqsRecord(eventBody("article.liked", { userId: "ann" })), // unknown_type
      sqsRecord(eventBody("article.liked", { userId: "bob" })), // unknown_type
      sqsRecord("{nope"), // invalid_json
    ]);
    const cli = cliIn(env);
    const dry = JSON.parse(
      (await cli(["dlq", "replay", "--type", "article.liked", "--dry-run", "--json"])).stdout,
    );
    expect(dry).toMatchObject({ dryRun: true, replayed: 2, notMatching: 2, failed: 0 });
    expect(await queueCounts(sqsOf(env), env.DLQ_URL as string)).toEqual({
      visible: 4,
      inFlight: 0,
      delayed: 0,
    });

    const byUser = JSON.parse(
      (await cli(["dlq", "replay", "--error", "unknown_type", "--user", "bob", "--json"])).stdout,
    );
    expect(byUser).toMatchObject({ replayed: 1, notMatching: 3, failed: 0 });
    const [replayed] = await receiveAll(sqsOf(env), env.QUEUE_URL as string);
    expect(JSON.parse(replayed?.Body ?? "{}").data.userId).toBe("bob");
    // Not matching: visible again at once, not after the replay's hold.
    expect(await queueCounts(sqsOf(env), env.DLQ_URL as string)).toEqual({
      visible: 3,
      inFlight: 0,
      delayed: 0,
    });

    expect((await cli(["dlq", "replay", "--error", "bogus"])).code).toBe(2);
  });

  it("--max replays at most that many source messages and leaves the rest visible", async ({ env }) => {
    await park(env, [sqsRecord("{1"), sqsRecord("{2"), sqsRecord("{3")]);
    const report = JSON.parse(
      (await cliIn(env)(["dlq", "replay", "--max", "2", "--rate", "50", "--json"])).stdout,
    );
    expect(report).toMatchObject({ replayed: 2, failed: 0 });
    expect(await queueCounts(sqsOf(env), env.DLQ_URL as string)).toEqual({
      visible: 1,
      inFlight: 0,
      delayed: 0,
    });
    expect((await queueCounts(sqsOf(env), env.QUEUE_URL as string)).visible).toBe(2);
    expect(report).toMatchObject({ overMax: 1, leftInDlq: 1 });
  });

  it("a replay capped by --max says how many matching messages remain, and how many in all", async ({
    env,
  }) => {
    await park(env, [
      sqsRecord(eventBody("article.shared", { userId: "capped" })),
      sqsRecord(eventBody("article.shared", { userId: "capped", articleSlug: "b" })),
      sqsRecord("{other"),
    ]);
    const run = await cliIn(env)(["dlq", "replay", "--user", "capped", "--max", "1"]);
    expect(run.stdout).toBe(
      "1 replayed, 0 extra copies deleted, 0 failed; left in the DLQ: 1 matching (over --max), 1 not matching the filter (2 messages in all).\n",
    );
  });

  it("failed sends say why, are visible again at once, and exit 1", async ({ env }) => {
    await park(env, [sqsRecord("{a"), sqsRecord("{b")]);
    const missingQueue = `${env.QUEUE_URL}-gone`;
    const run = await runCli(["dlq", "replay"], { ...env, QUEUE_URL: missingQueue });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^0 replayed, 0 extra copies deleted, 2 failed\.\n/);
    // Each says which call failed on which queue, at which endpoint.
    expect(run.stdout).toContain(
      `: not sent: SQS SendMessage on queue ${missingQueue} at ${env.AWS_ENDPOINT_URL_SQS}: QueueDoesNotExist`,
    );
    expect(await queueCounts(sqsOf(env), env.DLQ_URL as string)).toEqual({
      visible: 2,
      inFlight: 0,
      delayed: 0,
    });
    // A second replay to the right queue finds both.
    expect(JSON.parse((await cliIn(env)(["dlq", "replay", "--json"])).stdout)).toMatchObject({
      replayed: 2,
      failed: 0,
    });
  });

  it("an interruption between send and delete loses nothing: the rerun replays it again, harmlessly", async ({
    env,
    stack,
  }) => {
    await park(env, [sqsRecord(completed("interrupted", "a").replace("article.completed", "article.liked"))]);
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      // Every delete of this replay fails, the SDK's own resends included.
      rules: [{ operation: "DeleteMessage", fault: "reset", probability: 1 }],
      seed: 1,
    });
    const first = await runCli(["dlq", "replay", "--json"], { ...env, AWS_ENDPOINT_URL_SQS: proxy.endpoint });
    await proxy.stop();
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({
      replayed: 1,
      failed: 1,
      failures: [{ error: expect.stringMatching(/^sent, but not deleted from the DLQ/) }],
    });
    expect((await queueCounts(sqsOf(env), env.DLQ_URL as string)).visible).toBe(1);
    const rerun = await cliIn(env)(["dlq", "replay", "--json"]);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ replayed: 1, failed: 0 });
    expect(await queueCounts(sqsOf(env), env.DLQ_URL as string)).toEqual({
      visible: 0,
      inFlight: 0,
      delayed: 0,
    });
    expect((await queueCounts(sqsOf(env), env.QUEUE_URL as string)).visible).toBe(2);
  });

  it("copies of one source message: stats counts it once, replay sends one and deletes the others", async ({
    env,
  }) => {
    const record = sqsRecord("{twice");
    await park(env, [record]);
    await park(env, [record]); // a worker killed between its DLQ send and its delete parks it again
    const cli = cliIn(env);
    expect(JSON.parse((await cli(["dlq", "stats", "--json"])).stdout)).toMatchObject({
      visible: 2,
      distinct: 1,
      byError: { invalid_json: 1 },
    });
    expect(JSON.parse((await cli(["dlq", "replay", "--json"])).stdout)).toMatchObject({
      replayed: 1,
      copiesDeleted: 1,
    });
    expect((await queueCounts(sqsOf(env), env.QUEUE_URL as string)).visible).toBe(1);
    expect((await queueCounts(sqsOf(env), env.DLQ_URL as string)).visible).toBe(0);
  });

  it("a replayed message carries exactly its original attributes (overflow restored) and rewards.replayCount", async ({
    env,
  }) => {
    const attributes: SQSMessageAttributes = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`attr${i}`, { dataType: "String", stringValue: `v${i}` }]),
    );
    await park(env, [sqsRecord("{many", { messageAttributes: attributes })]);
    await cliIn(env)(["dlq", "replay"]);
    const [replayed] = await receiveAll(sqsOf(env), env.QUEUE_URL as string);
    const received = replayed?.MessageAttributes ?? {};
    expect(Object.keys(received).sort()).toEqual(
      [...Object.keys(attributes), "rewards.replayCount", "rewards.firstSentAt"].sort(),
    );
    expect(received.attr8?.StringValue).toBe("v8");
    expect(received["rewards.replayCount"]).toEqual({ DataType: "Number", StringValue: "1" });
  });

  it("--dry-run says what a replay would do to each message now; --skip-paid deletes only the already-paid", async ({
    env,
  }) => {
    const user = `judged-${Date.now()}`;
    const paidBody = eventBody("article.completed", { userId: user, articleSlug: "paid" });
    // Paid once (its guard is alive), then a copy of it reaches the DLQ (say, the redrive policy moved it).
    const deps = { ...createWorkerDeps({ ...env, LOG_LEVEL: "silent" }), emitMetrics: () => {} };
    expect((await processBatch(deps, sqsEvent([sqsRecord(paidBody)]), lambdaContext())).counts.awarded).toBe(
      1,
    );
    const bodies = {
      pay: eventBody("article.completed", { userId: user, articleSlug: "new" }),
      paid: paidBody,
      stale: eventBody(
        "article.completed",
        { userId: user, articleSlug: "old" },
        { time: new Date(Date.now() - 100 * 86_400_000).toISOString() },
      ),
      invalid: "{still not json",
    };
    const sqs = sqsOf(env);
    const ids: Record<string, string> = {};
    for (const [verdict, body] of Object.entries(bodies)) {
      ids[verdict] = (await sqs.send(new SendMessageCommand({ QueueUrl: env.DLQ_URL, MessageBody: body })))
        .MessageId as string;
    }
    const cli = cliIn(env);

    const dry = JSON.parse((await cli(["dlq", "replay", "--dry-run", "--json"])).stdout);
    expect(dry.verdicts).toEqual({ pay: 1, paid: 1, revoked: 0, stale: 1, invalid: 1 });
    expect(
      Object.fromEntries(
        dry.judged.map((j: { messageId: string; verdict: string }) => [j.verdict, j.messageId]),
      ),
    ).toEqual(ids);
    expect(dry.judged.find((j: { verdict: string }) => j.verdict === "stale").reason).toMatch(
      /^time .* is too old/,
    );
    expect((await queueCounts(sqs, env.DLQ_URL as string)).visible).toBe(4);
    expect(JSON.parse((await cli(["dlq", "stats", "--json"])).stdout).byVerdict).toEqual(dry.verdicts);
    const dryText = (await cli(["dlq", "replay", "--dry-run"])).stdout;
    expect(dryText.split("\n")[0]).toBe(
      "Replayed now, the matching messages would: 1 would pay, 1 already paid, 1 stale, 1 invalid.",
    );

    const skipping = JSON.parse((await cli(["dlq", "replay", "--skip-paid", "--json"])).stdout);
    expect(skipping).toMatchObject({
      replayed: 3,
      skippedPaid: 1,
      skipped: [{ messageId: ids.paid, intentKey: `${user}#paid#article.completed` }],
      verdicts: { pay: 1, paid: 1, revoked: 0, stale: 1, invalid: 1 },
    });
    expect((await queueCounts(sqs, env.DLQ_URL as string)).visible).toBe(0);
    const replayed = await receiveAll(sqs, env.QUEUE_URL as string);
    expect(replayed.map((m) => m.Body).sort()).toEqual([bodies.pay, bodies.stale, bodies.invalid].sort());
  });

  it("--native refuses while the DLQ holds an event without time and without rewards.firstSentAt", async ({
    env,
  }) => {
    const body = eventBody("signup.completed", { userId: `native-${Date.now()}` }, { time: undefined });
    await sqsOf(env).send(new SendMessageCommand({ QueueUrl: env.DLQ_URL, MessageBody: body }));
    const run = await cliIn(env)(["dlq", "replay", "--native"]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toMatch(
      /^rewards: --native would move 1 message whose event has no time and that carry no rewards\.firstSentAt/,
    );
  });

  it("--native says in one line that the local stack cannot do it", async ({ env }) => {
    const run = await cliIn(env)(["dlq", "replay", "--native"]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      "rewards: --native needs SQS's StartMessageMoveTask, which this endpoint does not offer (the local stack does not): replay without --native\n",
    );
  });
});

describe("producers and operators at the command line", () => {
  it("publish --source fills a missing source; --raw sends lines unvalidated", async ({ env }) => {
    const cli = cliIn(env);
    const noSource = JSON.stringify({
      specversion: "1.0",
      id: "e1",
      type: "signup.completed",
      data: { userId: "src" },
    });
    expect((await cli(["publish", "-"], `${noSource}\n`)).code).toBe(1);
    expect((await cli(["publish", "--source", "/ops", "-"], `${noSource}\n`)).code).toBe(0);
    const [sent] = await receiveAll(sqsOf(env), env.QUEUE_URL as string);
    expect(JSON.parse(sent?.Body ?? "{}").source).toBe("/ops");

    const raw = await cli(
      ["publish", "--raw", "-"],
      `{not json\n\n${eventBody("article.liked", { userId: "r" })}\n`,
    );
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe("line 1: ok\nline 3: ok\n2 published, 0 failed\n");
  });

  it("user --set-xp repairs a rejected profile only with --yes, conditionally, and logs it", async ({
    env,
  }) => {
    const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
    await dynamo.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: profileKey("repair-me"),
        UpdateExpression: "SET xp = :text, awards = :one",
        ExpressionAttributeValues: { ":text": "twenty", ":one": 1 },
      }),
    );
    const cli = cliIn(env);
    expect((await cli(["user", "repair-me", "--set-xp", "20"])).code).toBe(2);
    const set = await cli(["user", "repair-me", "--set-xp", "20", "--yes", "--json"]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ userId: "repair-me", from: "twenty", to: 20 });
    const shown = await cli(["user", "repair-me", "--json"]);
    expect(JSON.parse(shown.stdout).profile).toMatchObject({ userId: "repair-me", xp: 20, awards: 1 });
    expect(set.stderr).toMatch(/"from":"twenty","to":20.*profile xp set by an operator/);
  });

  it("a missing table is named, by every command that reads one", async ({ env }) => {
    const expect1 = join(tmpdir(), `expect-${Date.now()}.json`);
    await writeFile(expect1, JSON.stringify({ users: { u1: 20 } }));
    // A parked event that decodes: judging what its replay would do reads its guard.
    await sqsOf(env).send(
      new SendMessageCommand({ QueueUrl: env.DLQ_URL, MessageBody: completed("judged", "a") }),
    );
    for (const args of [
      ["user", "x"],
      ["board"],
      ["guard", "signup.completed", "userId=x"],
      ["verify", "--expect", expect1],
      ["dlq", "stats"],
    ]) {
      const run = await runCli(args, { ...env, TABLE_NAME: "no-such-table" });
      expect(run.code, args.join(" ")).toBe(1);
      // The call that failed first (a Query, a GetItem, …), the table and the endpoint, then what to check.
      expect(run.stderr, args.join(" ")).toMatch(
        new RegExp(
          `^rewards: DynamoDB \\w+ on table no-such-table( \\(index \\w+\\))? at ${env.AWS_ENDPOINT_URL_DYNAMODB}: no such table \\(check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB\\)\n$`,
        ),
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("an expectation file needs only users, and a bad one names the field", async ({ env }) => {
    const good = join(tmpdir(), `good-${Date.now()}.json`);
    const bad = join(tmpdir(), `bad-${Date.now()}.json`);
    await writeFile(good, JSON.stringify({ users: { "never-paid": 0 } }));
    await writeFile(bad, JSON.stringify({ users: { u1: "x" } }));
    expect(await cliIn(env)(["verify", "--expect", good])).toMatchObject({
      code: 0,
      stdout: "1 user, expected 0 XP, found 0 XP: all match\n",
    });
    expect(await cliIn(env)(["verify", "--expect", bad])).toMatchObject({
      code: 1,
      stderr: `rewards: ${bad} is not an expectation file: users.u1 expected a number\n`,
    });
  });

  it("a refused connection names the service and where it was looked for", async ({ env }) => {
    const run = await runCli(["queue", "stats"], {
      ...env,
      AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:1",
      QUEUE_URL: "http://127.0.0.1:1/000000000000/q",
    });
    expect(run).toMatchObject({
      code: 1,
      stderr:
        "rewards: SQS GetQueueAttributes on queue http://127.0.0.1:1/000000000000/q at http://127.0.0.1:1: connection refused (from AWS_ENDPOINT_URL_SQS): is `rewards dev` running? Otherwise check AWS_ENDPOINT_URL_SQS\n",
    });
  });

  it("rewards schema prints the committed schema; an unknown type is a usage error", async ({ env }) => {
    const run = await cliIn(env)(["schema", "streak.day"]);
    expect(run.code).toBe(0);
    const committed = JSON.parse(
      await readFile(new URL("../schemas/streak.day.schema.json", import.meta.url), "utf8"),
    );
    expect(JSON.parse(run.stdout)).toEqual(committed);
    const granted = await cliIn(env)(["schema", "reward.granted"]);
    expect(JSON.parse(granted.stdout)).toEqual(
      JSON.parse(await readFile(new URL("../schemas/reward.granted.schema.json", import.meta.url), "utf8")),
    );
    const achieved = await cliIn(env)(["schema", "reward.achieved"]);
    expect(achieved.code).toBe(0);
    expect(JSON.parse(achieved.stdout)).toEqual(
      JSON.parse(await readFile(new URL("../schemas/reward.achieved.schema.json", import.meta.url), "utf8")),
    );
    expect((await cliIn(env)(["schema", "article.liked"])).code).toBe(2);
  });

  it("rewards dev --pollers 0 --json prints the environment as one object and processes nothing", async () => {
    const dev = startCli(
      ["dev", "--pollers", "0", "--visibility-timeout", "5", "--json", "--function", "artifact"],
      {
        LOG_LEVEL: "warn",
      },
    );
    expect(await waitFor(() => dev.output().stdout.includes("\n"), { timeoutMs: 20_000 })).toBe(true);
    const env = JSON.parse(dev.output().stdout.trim()) as Record<string, string>;
    // The stage settings too, defaults included: a script that exports them reads what the functions write.
    expect(env).toMatchObject({
      AWS_REGION: "us-east-1",
      AWS_DEFAULT_REGION: "us-east-1",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_BOARD_WEEKS: "8",
      REWARDS_CONCURRENCY: "100",
      REWARDS_HISTORY_DAYS: "400",
      LOG_LEVEL: "warn",
    });
    await runCli(["publish", "-"], env, `${completed("dev-json", "a")}\n`);
    expect(await queueCounts(sqsOf(env), env.QUEUE_URL as string)).toEqual({
      visible: 1,
      inFlight: 0,
      delayed: 0,
    });
    const { Attributes } = await sqsOf(env).send(
      new (await import("@aws-sdk/client-sqs")).GetQueueAttributesCommand({
        QueueUrl: env.QUEUE_URL,
        AttributeNames: ["VisibilityTimeout"],
      }),
    );
    expect(Attributes?.VisibilityTimeout).toBe("5");
    dev.child.kill("SIGINT");
    expect(await dev.exited).toBe(0);
  });
});

describe("dlq peek and replay part-way: never gone and unshown", () => {
  const total = async (sqs: SQSClient, url: string) => {
    const { visible, inFlight } = await queueCounts(sqs, url);
    return visible + inFlight;
  };
  it.for([
    ["peek", "ReceiveMessage", 1],
    ["peek", "ChangeMessageVisibilityBatch", 0],
    ["replay", "ReceiveMessage", 1],
    ["replay", "DeleteMessage", 0],
    ["replay", "ChangeMessageVisibilityBatch", 0],
  ] as const)("dlq %s with %s failing", async ([command, operation, skip], { env, stack }) => {
    await park(
      env,
      Array.from({ length: 12 }, (_, i) => sqsRecord(`{${i}`)),
    );
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation, fault: "http500", probability: 1, skip }],
      seed: 1,
    });
    // Replay with a filter that matches half: the other half is released at the end.
    const args =
      command === "peek"
        ? ["dlq", "peek", "--max", "20", "--json"]
        : ["dlq", "replay", "--json", "--max", "6"];
    const run = await runCli(args, { ...env, AWS_ENDPOINT_URL_SQS: proxy.endpoint });
    await proxy.stop();
    expect(run.code).toBe(1);
    const sqs = sqsOf(env);
    const inDlq = await total(sqs, env.DLQ_URL as string);
    const sent = (await queueCounts(sqs, env.QUEUE_URL as string)).visible;
    if (command === "peek") {
      expect(inDlq).toBe(12);
      if (operation === "ChangeMessageVisibilityBatch") expect(JSON.parse(run.stdout)).toHaveLength(12);
    } else if (operation === "ReceiveMessage") {
      expect([inDlq, sent]).toEqual([12, 0]);
    } else if (operation === "DeleteMessage") {
      // Sent, not deleted: at worst replayed twice, never lost.
      expect([inDlq, sent]).toEqual([12, 6]);
      expect(JSON.parse(run.stdout)).toMatchObject({ replayed: 6, failed: 6 });
    } else {
      expect([inDlq, sent]).toEqual([6, 6]);
      expect(JSON.parse(run.stdout)).toMatchObject({
        replayed: 6,
        notReleased: expect.stringContaining("not released"),
      });
    }
  });
});
