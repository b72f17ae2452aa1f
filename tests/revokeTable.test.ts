import { randomUUID } from "node:crypto";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { isAnnouncerCandidate } from "@rewards/announcer";
import {
  grantId,
  guardKey,
  profileKey,
  revokeId,
  rewardGrantedSchema,
  rewardRevokedSchema,
} from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { revokeIntent } from "@rewards/ops";
import { completed, drain, runCli, stackTest, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";
import { announced, award, everyRecord, ownTable, sourceFor } from "./fixtures/announcerFixtures";

const it = stackTest();

/** Every announcement the local bus delivered to the test's grants queue, either kind. */
async function announcementsIn(env: Record<string, string>, queueUrl: string) {
  const messages = await drain(createSqsClient(env), queueUrl);
  return messages.map((m) => {
    const envelope = JSON.parse(m.Body ?? "");
    expect(envelope["detail-type"]).toBe(envelope.detail.type);
    return envelope.detail.type === "reward.revoked"
      ? rewardRevokedSchema.parse(envelope.detail)
      : rewardGrantedSchema.parse(envelope.detail);
  });
}

/** A table of the test's own with one paid award (20 XP) of a new user, and a client of it. */
async function oneAward(stack: Parameters<typeof ownTable>[0], prefix: string) {
  const table = await ownTable(stack);
  const user = `${prefix}-${randomUUID().slice(0, 6)}`;
  await award(table.env, [completed(user, "a")]);
  return { table, user, key: `${user}#a#article.completed`, dynamo: createDynamoClient(table.env) };
}

/** A client whose first transaction is preceded by `meddle` — someone else's write between our read and our write. */
function meddling(dynamo: DynamoDBDocumentClient, meddle: () => Promise<unknown>): DynamoDBDocumentClient {
  let done = false;
  return {
    async send(command: { constructor: { name: string } }) {
      if (!done && command.constructor.name === "TransactWriteCommand") {
        done = true;
        await meddle();
      }
      return dynamo.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
}

describe("revoking on the embedded DynamoDB", () => {
  it("is one guard MODIFY and one profile MODIFY on the stream, announced once as reward.revoked", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `r-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "b")]);
    const before = (await everyRecord(table.env, table.streamArn)).length;
    const run = await runCli(
      ["revoke", "-", "--reason", "test event sent to production", "--yes"],
      table.env,
      `${JSON.stringify({ intentKey: `${user}#a#article.completed` })}\n`,
    );
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const records = (await everyRecord(table.env, table.streamArn)).slice(before);
    expect(records.map((r) => [r.eventName, r.dynamodb?.Keys?.pk?.S])).toEqual([
      ["MODIFY", `IDEM#${user}#a#article.completed`],
      ["MODIFY", `USER#${user}`],
    ]);
    const dynamo = createDynamoClient(table.env);
    const profile = await dynamo.send(
      new GetCommand({ TableName: table.tableName, Key: profileKey(user), ConsistentRead: true }),
    );
    expect(profile.Item).toMatchObject({ xp: 20, awards: 1 });

    const { source } = await sourceFor(table, announced(table.env), { filter: isAnnouncerCandidate });
    const since = Date.now();
    expect(await waitFor(() => source.caughtUp(since))).toBe(true);
    await source.stop();
    const announcements = await announcementsIn(table.env, table.grantsQueueUrl);
    const granted = announcements.filter((a) => a.type === "reward.granted");
    const revoked = announcements.filter((a) => a.type === "reward.revoked");
    expect(granted.map((g) => g.data.intentKey).sort()).toEqual([
      `${user}#a#article.completed`,
      `${user}#b#article.completed`,
    ]);
    const grantA = granted.find((g) => g.data.intentKey === `${user}#a#article.completed`);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({
      id: revokeId(`${user}#a#article.completed`, grantA?.data.awardedAt as string),
      subject: user,
      data: { ...grantA?.data, reason: "test event sent to production" },
    });
    expect(grantA?.id).toBe(grantId(`${user}#a#article.completed`, grantA?.data.awardedAt as string));
  });

  it("re-judges by reading again when someone else revokes between the read and the write", async ({
    stack,
  }) => {
    const { table, user, key, dynamo } = await oneAward(stack, "c");
    // Another operator's revocation lands first (the same transaction, run by hand).
    const other = () =>
      revokeIntent(1, key, { dynamo, tableName: table.tableName, reason: "other", dryRun: false });
    const result = await revokeIntent(7, key, {
      dynamo: meddling(dynamo, other),
      tableName: table.tableName,
      reason: "mine",
      dryRun: false,
    });
    expect(result).toMatchObject({
      line: 7,
      verdict: "already_revoked",
      userId: user,
      xp: 20,
      revokedReason: "other",
    });
    const profile = await dynamo.send(new GetCommand({ TableName: table.tableName, Key: profileKey(user) }));
    expect(profile.Item).toMatchObject({ xp: 0, awards: 0 });
  });

  it("tells another run's revocation of the same millisecond and reason from its own, by the attempt's id", async ({
    stack,
  }) => {
    const { table, user, key, dynamo } = await oneAward(stack, "m");
    // Two operators running one file at once, their clocks on the same millisecond (after the
    // award's: a revocation stamped before the reader's last commit would be stamped again).
    const at = new Date(Date.now() + 60_000).toISOString();
    const clock = () => Date.parse(at);
    const deps = { tableName: table.tableName, reason: "producer bug", dryRun: false, clock };
    let other: Awaited<ReturnType<typeof revokeIntent>> | undefined;
    const mine = await revokeIntent(7, key, {
      ...deps,
      dynamo: meddling(dynamo, async () => {
        other = await revokeIntent(1, key, { ...deps, dynamo });
      }),
    });
    expect(mine).toMatchObject({
      line: 7,
      verdict: "already_revoked",
      xp: 20,
      revokedReason: "producer bug",
    });
    expect(other).toMatchObject({
      line: 1,
      verdict: "revoked",
      xp: 20,
      revokedAt: at,
    });
    const guard = await dynamo.send(new GetCommand({ TableName: table.tableName, Key: guardKey(key) }));
    expect(guard.Item).toMatchObject({
      revokedAt: at,
      revocationId: expect.any(String),
    });
    const profile = await dynamo.send(new GetCommand({ TableName: table.tableName, Key: profileKey(user) }));
    expect(profile.Item).toMatchObject({ xp: 0, awards: 0 });
  });

  it("a guard revoked before revocationId existed (revokedAt and revokedReason only) reads already_revoked to a later run, dry or not", async ({
    stack,
  }) => {
    const { table, user, key, dynamo } = await oneAward(stack, "u");
    // Revoked as `rewards revoke` did before it wrote the attempt's id (docs/revoking.md, "What it
    // does, per line"): the guard marked with revokedAt and revokedReason, the XP and count taken back.
    const revokedAt = "2026-12-01T09:30:00.000Z";
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table.tableName,
              Key: guardKey(key),
              UpdateExpression: "SET revokedAt = :now, revokedReason = :reason",
              ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(revokedAt)",
              ExpressionAttributeValues: { ":now": revokedAt, ":reason": "before the id" },
            },
          },
          {
            Update: {
              TableName: table.tableName,
              Key: profileKey(user),
              UpdateExpression: "ADD xp :minusAmount, awards :minusOne SET updatedAt = :now",
              ExpressionAttributeValues: { ":minusAmount": -20, ":minusOne": -1, ":now": revokedAt },
            },
          },
        ],
      }),
    );
    const guardBefore = (
      await dynamo.send(new GetCommand({ TableName: table.tableName, Key: guardKey(key) }))
    ).Item;
    expect(guardBefore).toMatchObject({ revokedAt, revokedReason: "before the id" });
    expect(guardBefore?.revocationId).toBeUndefined();

    const deps = { dynamo, tableName: table.tableName, reason: "producer bug" };
    const earlier = { intentKey: key, userId: user, xp: 20, revokedAt, revokedReason: "before the id" };
    // Not this run's own (it has attempted nothing yet), dry or not: no id on the guard is no id of ours.
    expect(await revokeIntent(1, key, { ...deps, dryRun: true })).toEqual({
      line: 1,
      verdict: "already_revoked",
      ...earlier,
    });
    expect(await revokeIntent(2, key, { ...deps, dryRun: false })).toEqual({
      line: 2,
      verdict: "already_revoked",
      ...earlier,
    });
    // As the operator sees it: nothing revoked, nothing counted twice.
    const cli = await runCli(
      ["revoke", "-", "--reason", "producer bug", "--yes"],
      table.env,
      `${JSON.stringify({ intentKey: key })}\n`,
    );
    expect(cli).toEqual({
      code: 0,
      stdout: [
        `line 1: already_revoked "${key}": user ${user} 20 XP, revoked at ${revokedAt} ("before the id")`,
        "0 revoked (0 XP from 0 users), 1 already_revoked, 0 not_found, 0 invalid, 0 failed",
        "",
      ].join("\n"),
      stderr: "",
    });
    // The table is as the earlier revocation left it: the XP taken back once, the guard unmarked by us.
    const guard = (await dynamo.send(new GetCommand({ TableName: table.tableName, Key: guardKey(key) })))
      .Item;
    expect(guard).toEqual(guardBefore);
    const profile = await dynamo.send(new GetCommand({ TableName: table.tableName, Key: profileKey(user) }));
    expect(profile.Item).toMatchObject({ xp: 0, awards: 0, updatedAt: revokedAt });
  });

  it("does not revoke a guard that expired, or was replaced by a new award, since it was read", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `x-${randomUUID().slice(0, 6)}`;
    await award(table.env, [completed(user, "a"), completed(user, "b")]);
    const dynamo = createDynamoClient(table.env);
    const set = (key: string, expression: string, values: Record<string, unknown>) => () =>
      dynamo.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: guardKey(key),
          UpdateExpression: expression,
          ExpressionAttributeValues: values,
        }),
      );
    const expired = await revokeIntent(1, `${user}#a#article.completed`, {
      dynamo: meddling(dynamo, set(`${user}#a#article.completed`, "SET expiresAt = :past", { ":past": 1 })),
      tableName: table.tableName,
      reason: "r",
      dryRun: false,
    });
    expect(expired).toEqual({
      line: 1,
      verdict: "not_found",
      intentKey: `${user}#a#article.completed`,
      reason: "guard expired at 1970-01-01T00:00:01.000Z (not yet swept)",
    });
    // Replaced: a new award of the intent (another awardedAt, 5 XP under a cap) after the old guard expired.
    const replaced = await revokeIntent(2, `${user}#b#article.completed`, {
      dynamo: meddling(
        dynamo,
        set(`${user}#b#article.completed`, "SET awardedAt = :later, amount = :capped", {
          ":later": "2099-01-01T00:00:00.000Z",
          ":capped": 5,
        }),
      ),
      tableName: table.tableName,
      reason: "r",
      dryRun: false,
    });
    // Judged again, it is the new award that is revoked — the one read, not the one first seen.
    expect(replaced).toMatchObject({ line: 2, verdict: "revoked", xp: 5 });
    const guard = await dynamo.send(
      new GetCommand({ TableName: table.tableName, Key: guardKey(`${user}#b#article.completed`) }),
    );
    expect(guard.Item).toMatchObject({ awardedAt: "2099-01-01T00:00:00.000Z", revokedReason: "r" });
    const profile = await dynamo.send(new GetCommand({ TableName: table.tableName, Key: profileKey(user) }));
    // 40 paid (the hand-made "new award" paid nothing here); the 5 XP read is taken back, once.
    expect(profile.Item).toMatchObject({ xp: 35, awards: 1 });
  });

  it("the DLQ's replay preview says 'already paid (revoked)' for a revoked intent; --skip-paid deletes it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `d-${randomUUID().slice(0, 6)}`;
    const revokedBody = completed(user, "revoked");
    const paidBody = completed(user, "paid");
    await award(table.env, [revokedBody, paidBody]);
    expect(
      (await runCli(["revoke", "-", "--reason", "bot", "--yes"], table.env, `${revokedBody}\n`)).stdout,
    ).toContain("1 revoked (20 XP from 1 user)");
    // Copies of both reach the DLQ (say, the redrive policy moved them), and one never paid.
    const sqs = createSqsClient(table.env);
    const newBody = completed(user, "new");
    for (const body of [revokedBody, paidBody, newBody])
      await sqs.send(new SendMessageCommand({ QueueUrl: table.env.DLQ_URL, MessageBody: body }));

    const stats = await runCli(["dlq", "stats", "--json"], table.env);
    expect(JSON.parse(stats.stdout).byVerdict).toEqual({ pay: 1, paid: 1, revoked: 1, stale: 0, invalid: 0 });
    expect((await runCli(["dlq", "stats"], table.env)).stdout).toContain(
      "would pay 1, already paid 1, already paid (revoked) 1, stale 0, invalid 0",
    );
    const dry = await runCli(["dlq", "replay", "--dry-run"], table.env);
    expect(dry.stdout.split("\n")[0]).toBe(
      "Replayed now, the matching messages would: 1 would pay, 1 already paid, 1 already paid (revoked), 0 stale, 0 invalid.",
    );
    const skipping = JSON.parse((await runCli(["dlq", "replay", "--skip-paid", "--json"], table.env)).stdout);
    expect(skipping).toMatchObject({ replayed: 1, skippedPaid: 2 });
    expect((await drain(sqs, table.env.QUEUE_URL as string)).map((m) => m.Body)).toEqual([newBody]);
  });

  it("names a missing table and an unreachable endpoint, one line, exit 1", async ({ stack }) => {
    const table = await ownTable(stack);
    const line = `${JSON.stringify({ intentKey: "u#signup.completed" })}\n`;
    const missing = await runCli(
      ["revoke", "-", "--reason", "r"],
      { ...table.env, TABLE_NAME: "no-such-table" },
      line,
    );
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: DynamoDB GetItem on table no-such-table at ${table.env.AWS_ENDPOINT_URL_DYNAMODB}: no such table (check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB)\n`,
    });
    const unreachable = await runCli(
      ["revoke", "-", "--reason", "r", "--yes"],
      { ...table.env, AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:9" },
      line,
    );
    expect(unreachable).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: DynamoDB GetItem on table ${table.env.TABLE_NAME} at http://127.0.0.1:9: connection refused (from AWS_ENDPOINT_URL_DYNAMODB): is \`rewards dev\` running? Otherwise check AWS_ENDPOINT_URL_DYNAMODB\n`,
    });
    const usage = await runCli(["revoke", "-"], table.env, line);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      "rewards: required option '--reason <text>' not specified\n(run `rewards revoke --help` for usage)\n",
    );
  });
});
