import { randomUUID } from "node:crypto";
import { createDynamoBaseClient, createDynamoClient } from "@rewards/core/aws";
import { functionUrlEvent } from "@rewards/local";
import { publishRules } from "@rewards/ops";
import { createHandler, createReadApiDeps } from "@rewards/read-api";
import { createReader, rulesViewSchema } from "@rewards/reader";
import { eventBody, lambdaContext, recordAttempts, rulesWith, stackTest } from "@rewards/testing";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

/** The rules as a site reads them (docs/reading.md#the-rules): `reader.rules()`, the profile's counts, `GET /rules`. */
const it = stackTest();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("reading the rules in force", () => {
  it("rules(), every current type counted, current titles, and GET /rules; re-read only when due, in the profile's own call", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const base = createDynamoBaseClient(table.env);
    let now = Date.now();
    const reader = createReader({
      tableName: table.tableName,
      client: base,
      rulesRefreshSeconds: 30,
      clock: () => new Date(now),
    });
    // Nothing published: version 0, the built-in rules.
    const builtin = await reader.rules();
    expect(builtin).toMatchObject({ version: 0, campaigns: [] });
    expect(builtin.publishedAt).toBeUndefined();
    expect(builtin.types.map((type) => [type.type, type.xp, type.memory])).toEqual([
      ["article.completed", 20, 90],
      ["article.shared", 5, 90],
      ["streak.day", 10, 90],
      ["signup.completed", 100, "forever"],
    ]);
    expect(builtin.achievements.map((achievement) => achievement.id)).toEqual([
      "first-article",
      "articles-10",
      "articles-100",
      "first-share",
      "streak-7",
      "streak-30",
    ]);

    const start = Date.now();
    const published = await publishRules(
      createDynamoClient(table.env),
      table.tableName,
      rulesWith((rules) => {
        rules.types["quiz.passed"] = {
          data: { quiz: { type: "string", maxLength: 64 } },
          key: ["quiz"],
          xp: { per: "score", each: 2, max: 20 },
          memory: 30,
        };
        (rules.types["quiz.passed"] as { data: Record<string, unknown> }).data.score = {
          type: "integer",
          minimum: 0,
        };
        rules.campaigns.push(
          {
            id: "quiz-week",
            title: "Quiz week",
            types: ["quiz.passed"],
            from: iso(start + HOUR),
            to: iso(start + 48 * HOUR),
            bonus: 5,
          },
          {
            id: "short",
            title: "Short",
            types: ["quiz.passed"],
            from: iso(start + HOUR),
            to: iso(start + 2 * HOUR),
            multiplier: 2,
          },
        );
        rules.achievements.push({
          id: "quizzer",
          title: "Quizzer",
          when: { count: "quiz.passed", reaches: 1 },
        });
        (rules.achievements[0] as { title: string }).title = "Your first article";
      }),
      { now: start },
    );
    expect(published.kind).toBe("published");
    const user = `rules-${randomUUID().slice(0, 6)}`;
    await award(table.env, [
      eventBody("article.completed", { userId: user, articleSlug: "a" }),
      eventBody("quiz.passed", { userId: user, quiz: "q1", score: 4 }),
    ]);
    await writeHistoryOfStream(table.env, table.streamArn);

    // Within the refresh period the reader keeps what it read: still version 0, nothing read for it.
    const attempts = recordAttempts(base);
    expect((await reader.rules()).version).toBe(0);
    expect((await reader.profile(user)).counts).toEqual({
      "article.completed": 1,
      "article.shared": 0,
      "streak.day": 0,
      "signup.completed": 0,
      // A count the profile holds is shown whatever the version the reader knows.
      "quiz.passed": 1,
    });
    expect(attempts.filter((attempt) => attempt.command === "GetItemCommand")).toHaveLength(0);

    // Past it: the profile's own BatchGetItem reads CURRENT; the new version's item is read once.
    now += 31_000;
    const before = attempts.length;
    const profile = await reader.profile(user);
    expect(profile.xp).toBe(28);
    const calls = attempts.slice(before).map((attempt) => attempt.command);
    expect(calls.filter((command) => command === "BatchGetItemCommand")).toHaveLength(1);
    expect(calls.filter((command) => command === "GetItemCommand")).toHaveLength(1);
    const rules = await reader.rules();
    expect(rules).toMatchObject({
      version: 1,
      publishedAt: published.kind === "published" ? published.publishedAt : "",
    });
    expect(rules.types.find((type) => type.type === "quiz.passed")).toEqual({
      type: "quiz.passed",
      xp: { per: "score", each: 2, max: 20 },
      memory: 30,
    });
    expect(rules.campaigns.map((campaign) => campaign.id)).toEqual(["quiz-week", "short"]);
    // A campaign over is no longer shown.
    now = start + 3 * HOUR;
    expect((await reader.rules()).campaigns.map((campaign) => campaign.id)).toEqual(["quiz-week"]);
    const titles = (await reader.achievements(user)).achievements.map((each) => [each.id, each.title]);
    expect(titles).toEqual(
      expect.arrayContaining([
        ["first-article", "Your first article"],
        ["quizzer", "Quizzer"],
      ]),
    );

    // GET /rules, as the read API answers it.
    const handler = createHandler({ ...createReadApiDeps(table.env), emitMetrics: () => {} });
    const event = functionUrlEvent(
      { method: "GET", url: "/rules", headers: { host: "local" }, sourceIp: "127.0.0.1" },
      Buffer.alloc(0),
      new Date(),
    );
    const answer = (await handler(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(answer.statusCode).toBe(200);
    const body = rulesViewSchema.parse(JSON.parse(String(answer.body)));
    expect(body.version).toBe(1);
    expect(body.achievements.at(-1)).toEqual({ id: "quizzer", title: "Quizzer" });
  });
});
