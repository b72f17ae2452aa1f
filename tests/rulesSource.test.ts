import { randomUUID } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { BUILTIN_RULES, checkRules, type RulesDocument, rulesPointerKey } from "@rewards/core";
import {
  createDynamoBaseClient,
  createDynamoClient,
  createRulesSource,
  NoGoodRulesError,
} from "@rewards/core/aws";
import { createTable } from "@rewards/local";
import { publishRules } from "@rewards/ops";
import { recordAttempts, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";

/**
 * The rules a function reads (docs/rules.md#at-run-time), on the local stack with the real SDK:
 * the clock is the test's, so "thawed after hours" is one assignment.
 */
const it = stackTest();

const documentWith = (xp: number): RulesDocument => {
  const copy = structuredClone(BUILTIN_RULES) as unknown as { types: Record<string, { xp: number }> };
  (copy.types["article.completed"] as { xp: number }).xp = xp;
  const checked = checkRules(copy);
  if (!checked.ok) throw new Error("invalid");
  return checked.document;
};

async function setUp(env: Record<string, string>) {
  const tableName = `rules-src-${randomUUID().slice(0, 8)}`;
  const base = createDynamoBaseClient(env);
  await createTable(base, tableName);
  base.destroy();
  const dynamo = createDynamoClient({ ...env, AWS_REGION: "us-east-1" });
  let now = Date.parse("2026-12-05T12:00:00Z");
  const rejected: string[] = [];
  const source = createRulesSource({
    dynamo,
    tableName,
    refreshSeconds: 30,
    clock: () => now,
    onRejected: (why) => rejected.push(why),
  });
  const gets = recordAttempts(dynamo);
  const reads = () => gets.filter((attempt) => attempt.command === "GetItemCommand").length;
  const publish = async (xp: number) => {
    const result = await publishRules(dynamo, tableName, documentWith(xp), { now });
    expect(result.kind).toBe("published");
  };
  return {
    dynamo,
    tableName,
    source,
    rejected,
    reads,
    publish,
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
  };
}

const xpOf = async (source: ReturnType<typeof createRulesSource>) =>
  (await source.forBatch()).compiled.types.get("article.completed")?.pays({}).xp;

describe("the rules a function reads", () => {
  it("nothing published: version 0; a publish applies once the refresh period has passed, read behind a batch, then from the next", async ({
    env,
  }) => {
    const { source, publish, advance, reads } = await setUp(env);
    expect((await source.forBatch()).version.version).toBe(0);
    expect(await xpOf(source)).toBe(20);
    await publish(25);
    advance(10);
    expect(await xpOf(source)).toBe(20);
    const before = reads();
    advance(25);
    // Past the period: this batch keeps its version; the re-read runs behind it.
    expect(await xpOf(source)).toBe(20);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await expect.poll(() => reads()).toBeGreaterThanOrEqual(before + 2);
    await expect.poll(() => xpOf(source)).toBe(25);
    expect((await source.forBatch()).version.version).toBe(1);
  });

  it("a copy older than twice the period (a thawed Lambda) is read again before the batch; a version already read is not fetched again", async ({
    env,
  }) => {
    const { source, publish, advance, reads } = await setUp(env);
    await publish(30);
    expect(await xpOf(source)).toBe(30);
    advance(61);
    const before = reads();
    expect(await xpOf(source)).toBe(30);
    // CURRENT only: version 1's document is cached.
    expect(reads()).toBe(before + 1);
    await publish(35);
    advance(61);
    expect(await xpOf(source)).toBe(35);
  });

  it("a hand-edited CURRENT is never used: a warm function keeps its last good version and reports it; a cold one has none", async ({
    env,
  }) => {
    const { dynamo, tableName, source, publish, advance, rejected } = await setUp(env);
    await publish(40);
    expect(await xpOf(source)).toBe(40);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: rulesPointerKey(),
        UpdateExpression: "SET digest = :d",
        ExpressionAttributeValues: { ":d": "0".repeat(64) },
      }),
    );
    advance(61);
    expect(await xpOf(source)).toBe(40);
    expect(rejected).toEqual([
      expect.stringMatching(/^version 1's document does not have the digest published with it/),
    ]);
    const cold = createRulesSource({ dynamo, tableName, refreshSeconds: 30, clock: () => Date.now() });
    await expect(cold.forBatch()).rejects.toThrow(NoGoodRulesError);
    await expect(cold.forBatch()).rejects.toThrow(
      /^no version of the rules to judge by: version 1's document does not have the digest published with it/,
    );
    // CURRENT deleted by hand after a publish: never version 0 again.
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: rulesPointerKey() }));
    advance(61);
    expect(await xpOf(source)).toBe(40);
    expect(rejected.at(-1)).toBe("CURRENT is gone; keeping version 1");
  });

  it("a CURRENT edited by hand back to an older version is refused by a function already past it; a cold start with CURRENT deleted after publishes has none", async ({
    env,
  }) => {
    const { dynamo, tableName, source, publish, advance, rejected } = await setUp(env);
    await publish(25);
    // Version 1 read (and cached) by this function, then version 2.
    expect(await xpOf(source)).toBe(25);
    const v1 = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: rulesPointerKey(), ConsistentRead: true }),
    );
    await publish(30);
    advance(61);
    expect(await xpOf(source)).toBe(30);
    await dynamo.send(new PutCommand({ TableName: tableName, Item: v1.Item }));
    advance(61);
    expect(await xpOf(source)).toBe(30);
    expect(rejected.at(-1)).toBe(
      "CURRENT names version 1, older than version 2 already in force: versions only go up",
    );
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: rulesPointerKey() }));
    const cold = createRulesSource({ dynamo, tableName, refreshSeconds: 30, clock: () => Date.now() });
    await expect(cold.forBatch()).rejects.toThrow(
      "no version of the rules to judge by: CURRENT is gone, and versions were published: never version 0 again",
    );
  });
});
