import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { grantId, guardImageSchema } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { revokeIntent } from "@rewards/ops";
import { completed, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, everyRecord, ownTable } from "./fixtures/announcerFixtures";
import { writeHistory } from "./fixtures/historyFixtures";

const it = stackTest();

async function historyOf(env: Record<string, string>, tableName: string, userId: string) {
  const answer = await createDynamoClient(env).send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
      ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":award": "AWARD#" },
    }),
  );
  return answer.Items ?? [];
}

const guardRecords = (records: Awaited<ReturnType<typeof everyRecord>>) =>
  records.filter((r) => r.dynamodb?.Keys?.sk?.S === "IDEM");

describe("the history's writer over the table's stream", () => {
  it("writes exactly one history item per award: new, repeated, capped, capped to 0, revoked", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env: Record<string, string> = {
      ...table.env,
      REWARDS_DAILY_XP_CAP: "30",
      REWARDS_HISTORY_DAYS: "10",
    };
    const user = `h-${randomUUID().slice(0, 6)}`;
    await award(env, [completed(user, "a")]);
    await award(env, [completed(user, "a"), completed(user, "b"), completed(user, "c")]);
    const dynamo = createDynamoClient(env);
    const revoked = await revokeIntent(1, `${user}#a#article.completed`, {
      dynamo,
      tableName: table.tableName,
      reason: "producer bug",
      dryRun: false,
    });
    expect(revoked).toMatchObject({ verdict: "revoked" });

    const records = await everyRecord(env, table.streamArn);
    const guards = guardRecords(records);
    // a's INSERT, b's and c's INSERTs, a's revocation (MODIFY).
    expect(guards.map((r) => [r.eventName, r.dynamodb?.Keys?.pk?.S])).toEqual([
      ["INSERT", `IDEM#${user}#a#article.completed`],
      ["INSERT", `IDEM#${user}#b#article.completed`],
      ["INSERT", `IDEM#${user}#c#article.completed`],
      ["MODIFY", `IDEM#${user}#a#article.completed`],
    ]);
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });

    const images = guards.map((r) =>
      guardImageSchema.parse(unmarshall(r.dynamodb?.NewImage as Record<string, AttributeValue>)),
    );
    const expected = (slug: string, index: number, extra: Record<string, unknown>) => {
      const image = images[index];
      if (!image) throw new Error("no image");
      const intentKey = `${user}#${slug}#article.completed`;
      const id = grantId(intentKey, image.awardedAt);
      const eventTime = image.eventTime ?? "";
      return {
        pk: `USER#${user}`,
        sk: `AWARD#${image.awardedAt}#${id}`,
        id,
        type: "article.completed",
        data: { articleSlug: slug },
        eventId: image.eventId,
        eventTime,
        earnedOn: new Date(eventTime).toISOString().slice(0, 10),
        awardedAt: image.awardedAt,
        intentKey,
        expiresAt: Math.floor(Date.parse(image.awardedAt) / 1000) + 10 * 86_400,
        counted: true,
        ...extra,
      };
    };
    const want = [
      expected("a", 3, {
        xp: 20,
        revokedAt: images[3]?.revokedAt,
        revokedReason: "producer bug",
      }),
      // b and c were paid in one transaction: their places in it.
      expected("b", 1, { xp: 10, requestedXp: 20, seq: 0 }),
      expected("c", 2, { xp: 0, requestedXp: 20, seq: 1 }),
    ].sort((x, y) => (x.sk < y.sk ? -1 : 1));
    expect(images[3]?.revokedAt).toMatch(/^\d{4}-/);
    const items = await historyOf(env, table.tableName, user);
    expect(items).toEqual(want);

    // Replaying a's older (unrevoked) image after the revocation leaves it revoked.
    expect(await writeHistory(env, [guards[0]])).toEqual({ batchItemFailures: [] });
    expect(await historyOf(env, table.tableName, user)).toEqual(want);
    // A copy of the whole stream writes the same items.
    expect(await writeHistory(env, records)).toEqual({ batchItemFailures: [] });
    expect(await historyOf(env, table.tableName, user)).toEqual(want);
  });
});
