import { randomUUID } from "node:crypto";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { isAnnouncerCandidate } from "@rewards/announcer";
import { achievementId, achievementKey, grantId } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { queueCounts } from "@rewards/ops";
import { completed, drain, runCli, stackTest, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";
import {
  announced,
  award,
  goneFailureRecord,
  grantsIn,
  ownTable,
  sourceFor,
} from "./fixtures/announcerFixtures";

const it = stackTest();

describe("operating the announcer with the CLI", () => {
  it("replays a given-up batch from the stream, and republishes from the table with the same ids", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `o-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "b")]);
    // An announcer whose bus is missing: every batch fails and is given up at once.
    const broken = announced({ ...table.env, BUS_NAME: "no-such-bus" });
    const { source, failures } = await sourceFor(table, broken, {
      filter: isAnnouncerCandidate,
      maximumRetryAttempts: 0,
      onFailure: async (failure) => {
        failures.push(failure);
        await createSqsClient(table.env).send(
          new SendMessageCommand({
            QueueUrl: table.announcerFailureQueueUrl,
            MessageBody: JSON.stringify(failure),
          }),
        );
      },
    });
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    await source.stop();

    const peek = await runCli(["grants", "failures", "--json"], table.env);
    expect(peek.code).toBe(0);
    expect(JSON.parse(peek.stdout)).toEqual(failures);

    const dry = await runCli(["grants", "replay", "--dry-run", "--json"], table.env);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      batches: 1,
      published: 0,
      results: [{ awards: 2, outcome: "would republish" }],
    });
    const replay = await runCli(["grants", "replay"], table.env);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("2 awards published from 1 batch; 0 batches kept");
    expect((await runCli(["grants", "failures"], table.env)).stdout).toBe(
      "no given-up batches: every award was announced\n",
    );

    const first = await grantsIn(table.env, table.grantsQueueUrl);
    expect(first.map((g) => g.data.intentKey)).toEqual([
      `${user}#a#article.completed`,
      `${user}#b#article.completed`,
    ]);
    const republish = await runCli(
      ["grants", "republish", "--since", "2020-01-01", "--user", user, "--json"],
      table.env,
    );
    expect(JSON.parse(republish.stdout)).toEqual({
      kind: "all",
      found: 2,
      revoked: 0,
      achievements: 0,
      events: 2,
      published: 2,
      unreadable: [],
      failed: [],
    });
    const again = await grantsIn(table.env, table.grantsQueueUrl);
    expect(new Set(again.map((g) => g.id))).toEqual(new Set(first.map((g) => g.id)));
  });

  it("keeps a failure record whose records the stream no longer holds, and says what to do", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const gone = {
      requestContext: {
        requestId: "r",
        functionArn: "f",
        condition: "RetryAttemptsExhausted",
        approximateInvokeCount: 11,
      },
      version: "1.0",
      timestamp: "2026-12-01T00:00:00.000Z",
      DDBStreamBatchInfo: {
        shardId: "shardId-1",
        startSequenceNumber: "100",
        endSequenceNumber: "101",
        batchSize: 2,
        streamArn: `${table.streamArn.split("/stream/")[0]}-deleted/stream/2026-01-01T00:00:00.000`,
      },
    };
    const sqs = createSqsClient(table.env);
    await sqs.send(
      new SendMessageCommand({ QueueUrl: table.announcerFailureQueueUrl, MessageBody: JSON.stringify(gone) }),
    );
    await sqs.send(
      new SendMessageCommand({ QueueUrl: table.announcerFailureQueueUrl, MessageBody: "not json" }),
    );
    const replay = await runCli(["grants", "replay"], table.env);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain("no longer in the stream (kept)");
    expect(replay.stdout).toContain("not a failure record (kept)");
    expect(replay.stdout).toContain("rewards grants republish --since");
    expect(replay.stdout).toContain("0 awards published from 0 batches; 2 batches kept");
  });

  it("rewards announcer --drain runs the deployable bundle and says what it announced", async ({ stack }) => {
    const table = await ownTable(stack);
    const user = `d-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "a"), completed(user, "b")]);
    const run = await runCli(["announcer", "--drain", "--function", "artifact", "--json"], table.env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      announced: 2,
      skipped: 0,
      failed: 0,
      invocations: 1,
      records: 2,
      retries: 0,
      givenUp: 0,
    });
    const tail = await runCli(["grants", "tail", "--json"], table.env);
    expect(
      tail.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).data.intentKey),
    ).toEqual([`${user}#a#article.completed`, `${user}#b#article.completed`]);
    const noBus = await runCli(["announcer", "--drain"], { ...table.env, BUS_NAME: "" });
    expect(noBus.code).toBe(1);
    expect(noBus.stderr).toContain("BUS_NAME");
  });
});

describe("replay keeps what it cannot account for; republish announces revocations", () => {
  it("reads past empty pages, keeps a record short of its batchSize, and republishes a revoked award as granted then revoked", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `e-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "b")]);
    const broken = announced({ ...table.env, BUS_NAME: "no-such-bus" });
    const { source, failures } = await sourceFor(table, broken, {
      filter: isAnnouncerCandidate,
      maximumRetryAttempts: 0,
    });
    expect(await waitFor(() => failures.length === 1)).toBe(true);
    await source.stop();
    const failure = failures[0] as { DDBStreamBatchInfo: { batchSize: number } };
    const sqs = createSqsClient(table.env);
    const sendFailure = (body: object) =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: table.announcerFailureQueueUrl,
          MessageBody: JSON.stringify(body),
        }),
      );

    // A record that says the batch held one record more than its range holds: kept.
    await sendFailure({
      ...failure,
      DDBStreamBatchInfo: {
        ...failure.DDBStreamBatchInfo,
        batchSize: failure.DDBStreamBatchInfo.batchSize + 1,
      },
    });
    const short = await runCli(["grants", "replay"], table.env);
    expect(short.code).toBe(1);
    expect(short.stdout).toContain(
      `found ${failure.DDBStreamBatchInfo.batchSize} of the batch's ${failure.DDBStreamBatchInfo.batchSize + 1} records`,
    );
    expect(short.stdout).toContain("1 missing");
    expect((await queueCounts(sqs, table.announcerFailureQueueUrl)).visible).toBe(1);
    await drain(sqs, table.announcerFailureQueueUrl);

    // The true record, read through empty pages first (as AWS may answer): all published, deleted.
    await sendFailure(failure);
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [{ operation: "GetRecords", fault: "emptyPage", probability: 1, times: 3 }],
      seed: 1,
    });
    const replay = await runCli(["grants", "replay"], {
      ...table.env,
      AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: proxy.endpoint,
    });
    expect(
      proxy.counts().emptyPage,
      `${replay.stdout}${replay.stderr}${JSON.stringify(proxy.counts())}`,
    ).toBe(3);
    await proxy.stop();
    expect(replay.stdout).toContain("2 awards published from 1 batch; 0 batches kept");
    expect(replay.code).toBe(0);
    expect((await queueCounts(sqs, table.announcerFailureQueueUrl)).visible).toBe(0);
    const first = await grantsIn(table.env, table.grantsQueueUrl);
    expect(first).toHaveLength(2);

    const revoke = await runCli(
      ["revoke", "-", "--reason", "bug", "--yes"],
      table.env,
      `${JSON.stringify({ intentKey: `${user}#a#article.completed` })}\n`,
    );
    expect(revoke.code).toBe(0);
    const republish = await runCli(
      ["grants", "republish", "--since", "2020-01-01", "--user", user, "--json"],
      table.env,
    );
    expect(JSON.parse(republish.stdout)).toEqual({
      kind: "all",
      found: 2,
      revoked: 1,
      achievements: 0,
      events: 3,
      published: 3,
      unreadable: [],
      failed: [],
    });
    const bodies = (await drain(sqs, table.grantsQueueUrl)).map((m) => JSON.parse(m.Body ?? "").detail);
    const granted = first.find((g) => g.data.intentKey === `${user}#a#article.completed`);
    expect(bodies.map((b) => [b.type, b.data.intentKey])).toEqual(
      expect.arrayContaining([
        ["reward.granted", `${user}#a#article.completed`],
        ["reward.revoked", `${user}#a#article.completed`],
        ["reward.granted", `${user}#b#article.completed`],
      ]),
    );
    expect(bodies).toHaveLength(3);
    const revoked = bodies.find((b) => b.type === "reward.revoked");
    expect(revoked).toMatchObject({
      data: { intentKey: granted?.data.intentKey, awardedAt: granted?.data.awardedAt, xp: 20, reason: "bug" },
    });
  });
});

describe("grants republish re-announces achievements from their items", () => {
  it("sends each achievement item's reward.achieved, with its id, every run; --kind, --dry-run and the window say and do exactly the same", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env = table.env;
    const sqs = createSqsClient(env);
    const dynamo = createDynamoClient(env);
    const [a, b] = [`ra-${randomUUID().slice(0, 6)}`, `rb-${randomUUID().slice(0, 6)}`];
    // One award (a guard: its reward.granted), and three achievement items of two readers, put as
    // the history's writer puts them. No announcer runs: the queue holds what republish sends.
    await award(env, [completed(a, "x")]);
    const crossing = grantId(`${a}#x#article.completed`, "2026-11-29T10:00:01.234Z");
    const items = [
      { userId: a, achievement: "first-article", earnedAt: "2026-11-29T10:00:01.234Z", grantId: crossing },
      { userId: b, achievement: "first-article", earnedAt: "2026-11-30T09:00:00.000Z" },
      { userId: b, achievement: "first-share", earnedAt: "2026-11-30T09:05:00.000Z" },
    ];
    for (const item of items)
      await dynamo.send(
        new PutCommand({
          TableName: env.TABLE_NAME,
          Item: { ...achievementKey(item.userId, item.achievement), ...item },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    const ids = items.map((item) => achievementId(item.userId, item.achievement)).sort();
    const republish = async (...args: string[]) => {
      const since = args.includes("--since") ? [] : ["--since", "2020-01-01"];
      const run = await runCli(["grants", "republish", ...since, ...args], env);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      return run.stdout;
    };
    /** What the bus delivered since the last look: [type, id] each, in id order (as `ids`: code units). */
    const delivered = async () =>
      (await drain(sqs, env.GRANTS_QUEUE_URL as string))
        .map((m) => JSON.parse(m.Body ?? "").detail)
        .map((event) => [event.type, event.id] as [string, string])
        .sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
    const achieved = (list: string[]) => list.map((id) => ["reward.achieved", id]);
    const report = (fields: object) => ({
      found: 0,
      revoked: 0,
      achievements: 0,
      published: 0,
      unreadable: [],
      failed: [],
      ...fields,
    });

    // The dry run counts what the run sends, and sends nothing.
    const dry = await republish("--kind", "achievements", "--dry-run", "--json");
    expect(JSON.parse(dry)).toEqual(report({ kind: "achievements", achievements: 3, events: 3 }));
    expect(await delivered()).toEqual([]);
    // Exactly the three reward.achieved, by their ids; a second run sends the same three again.
    for (let run = 0; run < 2; run++) {
      const json = await republish("--kind", "achievements", "--json");
      expect(JSON.parse(json)).toEqual(
        report({ kind: "achievements", achievements: 3, events: 3, published: 3 }),
      );
      expect(await delivered()).toEqual(achieved(ids));
    }
    // One reader's (--user), sent as the announcer sends it: the item's event, title and grantId included.
    expect(JSON.parse(await republish("--kind", "achievements", "--user", a, "--json"))).toEqual(
      report({ kind: "achievements", achievements: 1, events: 1, published: 1 }),
    );
    const messages = await drain(sqs, env.GRANTS_QUEUE_URL as string);
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0]?.Body ?? "")).toMatchObject({
      "detail-type": "reward.achieved",
      source: "rewards",
      time: "2026-11-29T10:00:01Z",
      detail: {
        id: achievementId(a, "first-article"),
        type: "reward.achieved",
        time: "2026-11-29T10:00:01.234Z",
        subject: a,
        data: {
          userId: a,
          achievement: "first-article",
          title: "First article",
          earnedAt: "2026-11-29T10:00:01.234Z",
          grantId: crossing,
        },
      },
    });

    // By default both kinds: the award's reward.granted and the three reward.achieved.
    const all = JSON.parse(await republish("--json"));
    expect(all).toEqual(report({ kind: "all", found: 1, achievements: 3, events: 4, published: 4 }));
    const both = await delivered();
    expect(both.filter(([type]) => type === "reward.achieved")).toEqual(achieved(ids));
    expect(both.filter(([type]) => type === "reward.granted")).toHaveLength(1);
    // --kind grants is what republish did before: awards only.
    expect(JSON.parse(await republish("--kind", "grants", "--json"))).toEqual(
      report({ kind: "grants", found: 1, events: 1, published: 1 }),
    );
    expect((await delivered()).map(([type]) => type)).toEqual(["reward.granted"]);

    // The window is the achievement's earnedAt (bounds included), and --user its reader.
    const window = ["--user", b, "--since", "2026-11-30T09:00:00Z", "--until", "2026-11-30T09:04:59Z"];
    const words = await republish(...window, "--dry-run");
    expect(words).toContain("achievements in the window");
    expect(words).toMatch(/│ would publish +│ 1 │/);
    expect(await delivered()).toEqual([]);
    expect(JSON.parse(await republish(...window, "--json"))).toEqual(
      report({ kind: "all", achievements: 1, events: 1, published: 1 }),
    );
    expect(await delivered()).toEqual(achieved([achievementId(b, "first-article")]));
  });
});

describe("grants replay --discard-unreplayable", () => {
  it("names itself for what no replay can do, then deletes each such record once printed in full, and exits 0", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const gone = JSON.stringify(goneFailureRecord(table, "100"));
    const sqs = createSqsClient(table.env);
    const ids: Record<string, string> = {};
    for (const body of [gone, "not json"]) {
      const sent = await sqs.send(
        new SendMessageCommand({ QueueUrl: table.announcerFailureQueueUrl, MessageBody: body }),
      );
      ids[body] = sent.MessageId ?? "";
    }
    const kept = await runCli(["grants", "replay"], table.env);
    expect(kept.code).toBe(1);
    expect(kept.stdout).toContain(
      "Batches no longer in the stream: announce their awards again from the table with `rewards grants republish --since <their first arrival>`.\nNo replay can do a record no longer in the stream or not a failure record: `rewards grants replay --discard-unreplayable` prints each in full and deletes it (once the step above is done).\n",
    );

    const discarded = await runCli(["grants", "replay", "--discard-unreplayable"], table.env);
    expect(discarded.code, discarded.stdout + discarded.stderr).toBe(0);
    expect(
      discarded.stdout
        .split("\n")
        .filter((line) => line.startsWith("discarding "))
        .sort(),
    ).toEqual(
      [
        `discarding message ${ids[gone]} (no longer in the stream): ${gone}`,
        `discarding message ${ids["not json"]} (not a failure record): not json`,
      ].sort(),
    );
    expect(discarded.stdout).toContain(
      "0 awards published from 0 batches; 0 batches kept; 2 batches discarded\n",
    );
    expect(await queueCounts(sqs, table.announcerFailureQueueUrl)).toMatchObject({ visible: 0, inFlight: 0 });
    expect((await runCli(["grants", "failures"], table.env)).stdout).toBe(
      "no given-up batches: every award was announced\n",
    );
  });
});
