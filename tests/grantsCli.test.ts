import { randomUUID } from "node:crypto";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { isAnnouncerCandidate } from "@rewards/announcer";
import { createSqsClient } from "@rewards/core/aws";
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
      found: 2,
      revoked: 0,
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
      found: 2,
      revoked: 1,
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
