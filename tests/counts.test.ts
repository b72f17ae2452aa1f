import { randomUUID } from "node:crypto";
import { UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import { profileKey } from "@rewards/core";
import { createDynamoBaseClient, createSqsClient } from "@rewards/core/aws";
import { createReader, UnreadableItemError } from "@rewards/reader";
import { completed, drain, eventBody, profileIn, runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";

/**
 * The profile's counts per event type (docs/reading.md#counts) through the real worker, the
 * real `rewards revoke` and the reader, on the embedded DynamoDB: each award counted once
 * toward its type in its own transaction (a copy, a redelivery and a 0-XP capped award
 * included as the guards decide), each revocation taking one off, once.
 */
const it = stackTest();

const shared = (userId: string, articleSlug: string) =>
  eventBody("article.shared", { userId, articleSlug, channel: "mastodon" });
const streakDay = (userId: string, daysAgo: number) =>
  eventBody("streak.day", {
    userId,
    day: new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10),
  });

describe("counts per event type", () => {
  it("counts each award once toward its type, 0-XP capped ones included, and a revocation takes one off once", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "50" };
    const user = `n-${randomUUID().slice(0, 6)}`;
    const a = completed(user, "a");
    const b = completed(user, "b");
    // One batch: a, the very same message body again (a copy), b and a share: 20 + 20 + 5 = 45 of 50.
    expect((await award(env, [a, a, b, shared(user, "a")])).batchItemFailures).toEqual([]);
    // Another batch: a again (paid before), c cut to the 5 left, d capped to 0 XP: still an award.
    const d = completed(user, "d");
    expect((await award(env, [completed(user, "a"), completed(user, "c"), d])).batchItemFailures).toEqual([]);
    // The second batch redelivered whole: nothing new.
    expect((await award(env, [completed(user, "a"), completed(user, "c"), d])).batchItemFailures).toEqual([]);
    expect(await profileIn(env, user)).toEqual({
      ...profileKey(user),
      xp: 50,
      awards: 5,
      "count:article.completed": 4,
      "count:article.shared": 1,
      updatedAt: expect.any(String),
    });

    // Revoke b (20 XP) and the capped d (0 XP), then the same file again: revoked once.
    const revocations = `${b}\n${d}\n`;
    const first = await runCli(["revoke", "-", "--reason", "counts test", "--yes"], env, revocations);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toContain("2 revoked (20 XP from 1 user)");
    const again = await runCli(["revoke", "-", "--reason", "counts test", "--yes"], env, revocations);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(again.stdout).toContain("0 revoked");
    expect(await profileIn(env, user)).toEqual({
      ...profileKey(user),
      xp: 30,
      awards: 3,
      "count:article.completed": 2,
      "count:article.shared": 1,
      // Revocations counted: a reader with one reads their timeline for achievements (docs/reading.md#when-exactly).
      revoked: 2,
      updatedAt: expect.any(String),
    });

    // The reader: every type, 0 where the profile has no count.
    const client = createDynamoBaseClient(env);
    try {
      const reader = createReader({ tableName: table.tableName, client, dailyCap: 50 });
      expect((await reader.profile(user)).counts).toEqual({
        "article.completed": 2,
        "article.shared": 1,
        "streak.day": 0,
        "signup.completed": 0,
      });
    } finally {
      client.destroy();
    }
  });

  it("a count that is not a number refuses its type's awards (parked as rejected) and the reader, naming it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const user = `bad-${randomUUID().slice(0, 6)}`;
    expect((await award(table.env, [streakDay(user, 1)])).batchItemFailures).toEqual([]);
    const dynamo = createDynamoBaseClient(table.env);
    const reader = createReader({ tableName: table.tableName, client: dynamo });
    try {
      await dynamo.send(
        new UpdateItemCommand({
          TableName: table.tableName,
          Key: { pk: { S: profileKey(user).pk }, sk: { S: profileKey(user).sk } },
          UpdateExpression: "SET #count = :text",
          ExpressionAttributeNames: { "#count": "count:streak.day" },
          ExpressionAttributeValues: { ":text": { S: "one" } },
        }),
      );
      // Another type's award adds nothing to that count: it is paid.
      expect((await award(table.env, [completed(user, "a")])).batchItemFailures).toEqual([]);
      // A streak day adds to it: refused, parked with the reason.
      expect((await award(table.env, [streakDay(user, 0)])).batchItemFailures).toEqual([]);
      const parked = await drain(createSqsClient(table.env), table.env.DLQ_URL as string);
      expect(parked.map((m) => m.MessageAttributes?.["rewards.error"]?.StringValue)).toEqual(["rejected"]);
      expect(parked[0]?.MessageAttributes?.["rewards.reason"]?.StringValue).toContain(
        "the award adds to its xp, awards and its type's count (count:<type>), which must all be numbers",
      );
      expect(await profileIn(table.env, user)).toEqual({
        ...profileKey(user),
        xp: 30,
        awards: 2,
        "count:streak.day": "one",
        "count:article.completed": 1,
        updatedAt: expect.any(String),
      });

      const refused = await reader.profile(user).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UnreadableItemError);
      expect((refused as UnreadableItemError).problem).toMatch(/^count:streak\.day: .* \("one"\)$/);
    } finally {
      dynamo.destroy();
    }
  });
});
