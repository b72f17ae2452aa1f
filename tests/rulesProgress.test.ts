import { randomUUID } from "node:crypto";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { AWARD_SK_PREFIX, profileKey, type RulesDocument } from "@rewards/core";
import { createDynamoClient, createRulesSource } from "@rewards/core/aws";
import { createHandler, createHistoryDeps } from "@rewards/history";
import { publishRules, repairProgress } from "@rewards/ops";
import { eventBody, lambdaContext, rulesWith, stackTest } from "@rewards/testing";
import type { DynamoDBRecord } from "aws-lambda";
import { describe, expect } from "vitest";
import { award, everyRecord, ownTable } from "./fixtures/announcerFixtures";
import { achievementItems, writeHistoryOfStream } from "./fixtures/historyFixtures";

/**
 * A site's own types and achievements through the history's writer and the backfill
 * (docs/rules.md#new-and-retired-achievements), on the local stack: every fact from the guard,
 * every achievement on the timeline, with the instants a version gives it.
 */
const it = stackTest();

const PODCAST = {
  data: { episode: { type: "string", maxLength: 64 }, minutes: { type: "integer", minimum: 0 } },
  key: ["episode"],
  xp: { per: "minutes", each: 1, max: 60 },
  memory: 30,
};
const podcast = (userId: string, episode: string, minutes: number) =>
  eventBody("podcast.listened", { userId, episode, minutes });

const version1 = rulesWith((rules) => {
  rules.types["podcast.listened"] = PODCAST;
  rules.achievements.push({
    id: "podcasts-2",
    title: "Two podcasts",
    when: { count: "podcast.listened", reaches: 2 },
  });
});
const version2 = rulesWith((rules) => {
  rules.types["podcast.listened"] = PODCAST;
  rules.achievements.push(
    { id: "podcasts-2", title: "Two podcasts", when: { count: "podcast.listened", reaches: 2 } },
    { id: "xp-50", title: "Fifty XP", when: { xp: 50 } },
  );
});

/** A table of the test's own, and a publish that must publish. */
async function rulesTable(stack: Parameters<typeof ownTable>[0]) {
  const table = await ownTable(stack);
  const dynamo = createDynamoClient(table.env);
  const publish = async (document: RulesDocument) => {
    const published = await publishRules(dynamo, table.tableName, document, {});
    if (published.kind !== "published") throw new Error(published.kind);
    return published;
  };
  return { table, dynamo, publish };
}

describe("a site's own types and achievements, after the award", () => {
  it("the history carries the guard's facts; a custom achievement is earned at the award that crosses it; one added later, at its version's publish, by the backfill", async ({
    stack,
  }) => {
    const { table, dynamo, publish } = await rulesTable(stack);
    await publish(version1);
    const early = `early-${randomUUID().slice(0, 6)}`;
    const late = `late-${randomUUID().slice(0, 6)}`;
    await award(table.env, [podcast(early, "e1", 30), podcast(early, "e2", 25)]);
    await award(table.env, [podcast(late, "e1", 10)]);
    await writeHistoryOfStream(table.env, table.streamArn);

    const { Items: history = [] } = await dynamo.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
        ExpressionAttributeValues: { ":pk": profileKey(early).pk, ":award": AWARD_SK_PREFIX },
      }),
    );
    expect(
      history.map((item) => [item.type, item.xp, item.units, item.rulesVersion, item.data]).sort(),
    ).toEqual([
      ["podcast.listened", 25, 25, 1, { episode: "e2", minutes: 25 }],
      ["podcast.listened", 30, 30, 1, { episode: "e1", minutes: 30 }],
    ]);
    const earned = await achievementItems(table.env, table.tableName, early);
    expect(earned.map((item) => [item.achievement, item.title])).toEqual([["podcasts-2", "Two podcasts"]]);
    expect(earned[0]?.grantId).toMatch(/^grant-/);
    expect(await achievementItems(table.env, table.tableName, late)).toEqual([]);

    // xp-50, added by version 2: `early` (55 XP) met it before; `late` (10 XP) meets it after.
    const second = await publish(version2);
    // `early` has had no award since: the backfill earns it at the publish, with no grant.
    const report = await repairProgress(dynamo, { tableName: table.tableName, counts: false, dryRun: false });
    expect(report.readers.find((reader) => reader.userId === early)?.earned).toEqual([
      { achievement: "xp-50", earnedAt: second.publishedAt },
    ]);
    expect(report.readers.find((reader) => reader.userId === late)?.earned).toEqual([]);
    const fan = (await achievementItems(table.env, table.tableName, early)).find(
      (item) => item.achievement === "xp-50",
    );
    expect(fan).toMatchObject({ title: "Fifty XP", earnedAt: second.publishedAt });
    expect(fan?.grantId).toBeUndefined();
    // Idempotent: a second pass earns nothing.
    const again = await repairProgress(dynamo, { tableName: table.tableName, counts: false, dryRun: false });
    expect(again.totals.achieved).toBe(0);

    await award(table.env, [podcast(late, "e2", 45)]);
    await writeHistoryOfStream(table.env, table.streamArn);
    const lateEarned = await achievementItems(table.env, table.tableName, late);
    expect(lateEarned.map((item) => item.achievement).sort()).toEqual(["podcasts-2", "xp-50"]);
    expect(lateEarned.find((item) => item.achievement === "xp-50")?.grantId).toMatch(/^grant-/);
    // The writer, replaying every record since, decides what the backfill did: nothing more.
    expect(
      (await achievementItems(table.env, table.tableName, early)).map((item) => item.achievement),
    ).toEqual(["podcasts-2", "xp-50"]);
  });

  it("a writer still on the version before an achievement's retirement reads the rules again before deciding an award committed since", async ({
    stack,
  }) => {
    const { table, dynamo, publish } = await rulesTable(stack);
    await publish(version2);
    // The writer's copy of the rules: version 1 (xp-50 counting), read now and fresh for 30 s.
    const rules = createRulesSource({
      dynamo,
      tableName: table.tableName,
      refreshSeconds: 30,
      clock: Date.now,
    });
    expect((await rules.forBatch()).version.version).toBe(1);
    const retired = await publish(
      rulesWith((document) => {
        document.types["podcast.listened"] = PODCAST;
        document.achievements.push(
          { id: "podcasts-2", title: "Two podcasts", when: { count: "podcast.listened", reaches: 2 } },
          { id: "xp-50", title: "Fifty XP", when: { xp: 50 }, retired: true },
        );
      }),
    );
    const reader = `stale-${randomUUID().slice(0, 6)}`;
    // Committed after the retirement: 60 XP crosses xp-50, which no longer counts.
    await award(table.env, [podcast(reader, "e1", 60)]);
    const writer = createHandler({
      ...createHistoryDeps({ ...table.env, LOG_LEVEL: "silent" }),
      rules,
      emitMetrics: () => {},
    });
    const answer = await writer(
      { Records: (await everyRecord(table.env, table.streamArn)) as DynamoDBRecord[] },
      lambdaContext(),
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(retired.publishedAt < new Date().toISOString()).toBe(true);
    // Neither the writer nor the backfill earns it: both decide under the retirement.
    expect(await achievementItems(table.env, table.tableName, reader)).toEqual([]);
    const report = await repairProgress(dynamo, { tableName: table.tableName, counts: false, dryRun: true });
    expect(report.readers.find((each) => each.userId === reader)?.earned).toEqual([]);
    // The writer read the rules again for it: the retiring version is the one it now holds.
    expect((await rules.forBatch()).version.version).toBe(2);
  });
});
