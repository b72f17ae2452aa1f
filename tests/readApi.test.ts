import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { boardShardOf, dayNumberOf, dayOfNumber, isoWeekOf, isoWeekPlus } from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient, createLogger } from "@rewards/core/aws";
import { toolConfigFrom } from "@rewards/core/deploy";
import { functionUrlEvent, pythonForMoto, startFaultProxy, startLocalReadApi } from "@rewards/local";
import { revokeIntent } from "@rewards/ops";
import { createHandler, createReadApiDeps, problemTypes, readReadApiConfig } from "@rewards/read-api";
import { createReader } from "@rewards/reader";
import { completed, eventBody, HANG_GUARD_MS, lambdaContext, signup, stackTest } from "@rewards/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

// The HTTP read API (docs/reading.md) against the local stack: the function's handler with its real
// deps, then the local function URL `rewards dev` serves, then the Python caller.

const it = stackTest();
const root = new URL("../", import.meta.url);
const openApi = JSON.parse(await readFile(new URL("schemas/reader.openapi.json", root), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: false });
// The instants and days are checked too (date-time, date), as a generated client would.
addFormats.default(ajv);
ajv.addSchema(openApi, "openapi");

interface HeaderDoc {
  required?: boolean;
  schema: object;
}
interface ResponseDoc {
  headers?: Record<string, HeaderDoc>;
  content: Record<string, { schema: object }>;
}
type Answer = { status: number; headers: Record<string, unknown>; body: unknown };

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorOf(schema: object): ReturnType<typeof ajv.compile> {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    // A `#/components/…` reference is the document's own.
    validate = ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/')));
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Where `answer` departs from the committed OpenAPI document, by its path and status: a status
 * the route does not declare, a content type or body the response does not, a declared header
 * missing or of another shape, a header sent that the response does not declare. An unmatched
 * path is held to the 404 every route declares.
 */
function departures(path: string, answer: Answer): string[] {
  const pathname = path.split("?")[0] ?? "";
  const template = Object.keys(openApi.paths).find((t) =>
    new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}/?$`).test(pathname),
  );
  const responses: Record<string, ResponseDoc> = openApi.paths[template ?? "/users/{userId}"].get.responses;
  const where = `${template ?? pathname} ${answer.status}`;
  const response = responses[String(answer.status)];
  if (!response || (template === undefined && answer.status !== 404))
    return [`${where}: not a declared status`];
  const sent = new Map(
    Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  const found: string[] = [];
  const contentType = sent.get("content-type") ?? "";
  sent.delete("content-type");
  const content = response.content[contentType];
  if (!content) found.push(`${where}: content type ${JSON.stringify(contentType)} is not declared`);
  else {
    const validate = validatorOf(content.schema);
    if (!validate(answer.body)) found.push(`${where}: body: ${ajv.errorsText(validate.errors)}`);
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = sent.get(name.toLowerCase());
    sent.delete(name.toLowerCase());
    if (value === undefined) {
      if (header.required) found.push(`${where}: the declared header ${name} is missing`);
      continue;
    }
    const validate = validatorOf(header.schema);
    if (!validate(value)) found.push(`${where}: header ${name}: ${ajv.errorsText(validate.errors)}`);
  }
  for (const name of sent.keys()) found.push(`${where}: the header ${name} is sent but not declared`);
  return found;
}

/** Every answer checked against the committed OpenAPI document: body, content type and headers. */
function conforms(path: string, answer: Answer) {
  expect(departures(path, answer), path).toEqual([]);
}

/**
 * The handler with its real deps over `env`, its log lines and EMF lines kept; with `clock`, its
 * reader reads today (the cap's, the streak's) at that instant instead of now.
 */
function readApiOver(env: Record<string, string>, clock?: () => Date) {
  const logs: Array<Record<string, unknown>> = [];
  const metrics: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const deps = createReadApiDeps(env);
  const handler = createHandler({
    ...deps,
    ...(clock === undefined ? {} : { reader: readerOver(env, clock) }),
    logger: createLogger({ level: "info", name: "rewards-read-api", destination }),
    emitMetrics: (line) => metrics.push(JSON.parse(line)),
  });
  const request = async (method: string, target: string) => {
    const event = functionUrlEvent(
      { method, url: target, headers: { host: "local" }, sourceIp: "127.0.0.1" },
      Buffer.alloc(0),
      new Date(),
    );
    const result = (await handler(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    const answer = {
      status: result.statusCode ?? 0,
      headers: result.headers ?? {},
      body: JSON.parse(String(result.body)),
    };
    conforms(target, answer);
    return answer;
  };
  return { request, logs, metrics };
}

/** A reader over `env`'s table, as the read API builds it (its cap), with `clock` for now. */
function readerOver(env: Record<string, string>, clock?: () => Date) {
  return createReader({
    tableName: env.TABLE_NAME as string,
    client: createDynamoBaseClient(env),
    ...(env.REWARDS_DAILY_XP_CAP === undefined ? {} : { dailyCap: Number(env.REWARDS_DAILY_XP_CAP) }),
    ...(clock === undefined ? {} : { clock }),
  });
}

async function seededUser(stack: Parameters<typeof ownTable>[0], user: string) {
  const table = await ownTable(stack);
  const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "30", LOG_LEVEL: "silent" };
  await award(env, [completed(user, "a")]);
  await award(env, [completed(user, "a"), completed(user, "b"), completed(user, "c")]);
  await award(env, [signup(user)]);
  await revokeIntent(1, `${user}#a#article.completed`, {
    dynamo: createDynamoClient(env),
    tableName: table.tableName,
    reason: "producer bug",
    dryRun: false,
  });
  await writeHistoryOfStream(env, table.streamArn);
  const reader = createReader({
    tableName: table.tableName,
    client: createDynamoBaseClient(env),
    dailyCap: 30,
  });
  return { table, env, reader };
}

describe("the read API's handler on the local stack", () => {
  it("answers what the library answers: the profile, pages of awards joined by cursor", async ({ stack }) => {
    const { env, reader } = await seededUser(stack, "api-user");
    const { request, logs, metrics } = readApiOver(env);

    const profile = await request("GET", "/users/api-user");
    expect(profile).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body: await reader.profile("api-user"),
    });
    expect(profile.body).toMatchObject({
      xp: 110,
      awards: 3,
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 },
      today: { xp: 30, cap: 30, left: 0 },
      // This week's XP is the history's (the revoked article's 20 off), and the only reader ranks first.
      week: { week: isoWeekOf(Date.now()), xp: 110, rank: 1 },
    });

    const first = await request("GET", "/users/api-user/awards?limit=2");
    expect(first.status).toBe(200);
    expect(first.body).toEqual(await reader.history("api-user", { limit: 2 }));
    expect(first.body.awards).toHaveLength(2);
    const second = await request(
      "GET",
      `/users/api-user/awards?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`,
    );
    expect(second.body.cursor).toBeUndefined();
    expect([...first.body.awards, ...second.body.awards]).toEqual((await reader.history("api-user")).awards);
    expect((await request("GET", "/users/api-user/awards")).body).toEqual(await reader.history("api-user"));

    // An unknown user is a new reader, never a 404; the same for its awards.
    expect(await request("GET", "/users/never-seen")).toMatchObject({
      status: 200,
      body: {
        userId: "never-seen",
        xp: 0,
        awards: 0,
        counts: { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
        level: { level: 1, xpFloor: 0, xpNext: 100 },
      },
    });
    expect((await request("GET", "/users/never-seen/awards")).body).toEqual({ awards: [] });

    // One info line per request, the route's template and never the user's id; one EMF line.
    expect(logs).toHaveLength(6);
    expect(logs[0]).toEqual({
      level: 30,
      time: expect.any(String),
      name: "rewards-read-api",
      method: "GET",
      route: "/users/{userId}",
      status: 200,
      ms: expect.any(Number),
      msg: "request",
    });
    expect(JSON.stringify(logs)).not.toContain("api-user");
    expect(metrics[1]).toMatchObject({
      service: "rewards-read-api",
      // No REWARDS_STAGE in a local stack's environment: the functions' own default.
      stage: "local",
      requests: 1,
      "4xx": 0,
      "5xx": 0,
      latency: expect.any(Number),
      _aws: { CloudWatchMetrics: [{ Namespace: "Rewards", Dimensions: [["service", "stage"]] }] },
    });
  });

  it("the streak in the zone asked for, and the achievements, newest first: what the library answers", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    // Under a cap of 30 XP a day: the first three awards of the day are paid, the rest are 0-XP awards.
    const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "30", LOG_LEVEL: "silent" };
    const user = "api-progress";
    const today = dayNumberOf(new Date().toISOString().slice(0, 10));
    const day = (n: number) => dayOfNumber(today + n);
    const streakDay = (n: number) => eventBody("streak.day", { userId: user, day: day(n) });
    /** Each batch through the worker, then the whole stream so far through the history's writer. */
    const awarded = async (bodies: string[]) => {
      await award(env, bodies);
      await writeHistoryOfStream(env, table.streamArn);
    };
    // Kept days: today−12 … today−7 and today−4 … today; then today−6, late, makes the first run 7
    // (today−5 is never kept): a run of 7 (streak-7), and the current one of 5.
    await awarded([...[-12, -11, -10, -9, -8, -7].map(streakDay), ...[-4, -3, -2, -1, 0].map(streakDay)]);
    await awarded([streakDay(-6)]);
    await awarded([signup(user)]); // 30 + 100 XP: level 2
    await awarded([completed(user, "a")]); // 0 XP (the cap), and still the first article

    const history = (await readerOver(env).history(user, { limit: 100 })).awards;
    expect(history).toHaveLength(14);
    const awardOf = (type: string, data: Record<string, unknown> = {}) => {
      const found = history.filter(
        (a) => a.type === type && Object.entries(data).every(([k, v]) => a.data[k] === v),
      );
      expect(found, type).toHaveLength(1);
      return found[0] as (typeof history)[number];
    };
    const crossed = (type: string, data?: Record<string, unknown>) => {
      const { awardedAt, id, xp } = awardOf(type, data);
      // An award the cap cut to 0 announced nothing: it is no achievement's grantId.
      return xp === 0 ? { earnedAt: awardedAt } : { earnedAt: awardedAt, grantId: id };
    };

    // 23:30 UTC on the last kept day: already tomorrow in Paris, so the last day is yesterday there.
    const lastEvening = () => new Date(`${day(0)}T23:30:00.000Z`);
    const { request } = readApiOver(env, lastEvening);
    const profile = await request("GET", `/users/${user}?timeZone=Europe/Paris`);
    expect(profile).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body: await readerOver(env, lastEvening).profile(user, { timeZone: "Europe/Paris" }),
    });
    expect(profile.body).toMatchObject({
      xp: 130,
      awards: 14,
      counts: { "article.completed": 1, "article.shared": 0, "streak.day": 12, "signup.completed": 1 },
      streak: { current: 5, longest: 7, lastDay: day(0) },
      level: { level: 2 },
    });
    // A day later, at 23:30 UTC: the last kept day is yesterday in UTC (the default), two days ago in Paris.
    const nextEvening = () => new Date(`${day(1)}T23:30:00.000Z`);
    const later = readApiOver(env, nextEvening);
    expect((await later.request("GET", `/users/${user}?timeZone=Europe/Paris`)).body.streak).toEqual({
      current: 0,
      longest: 7,
      lastDay: day(0),
    });
    expect((await later.request("GET", `/users/${user}?timeZone=UTC`)).body.streak).toEqual({
      current: 5,
      longest: 7,
      lastDay: day(0),
    });
    expect((await later.request("GET", `/users/${user}`)).body.streak).toEqual({
      current: 5,
      longest: 7,
      lastDay: day(0),
    });

    // Newest first; each at the award that crossed it, credited to it when it announced something
    // (the article and the late day were cut to 0 by the cap: no grantId).
    const achievements = await request("GET", `/users/${user}/achievements`);
    expect(achievements).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body: {
        achievements: [
          { id: "first-article", title: "First article", ...crossed("article.completed") },
          // (checked below to be the two without a grantId)
          { id: "level-2", title: "Level 2", ...crossed("signup.completed") },
          { id: "streak-7", title: "A week in a row", ...crossed("streak.day", { day: day(-6) }) },
        ],
      },
    });
    expect(achievements.body).toEqual(await readerOver(env).achievements(user));
    expect(
      (achievements.body as { achievements: Array<{ id: string; grantId?: string }> }).achievements
        .filter((a) => a.grantId === undefined)
        .map((a) => a.id),
    ).toEqual(["first-article", "streak-7"]);
    // An unknown user has none: a 200, never a 404.
    expect(await request("GET", "/users/never-seen/achievements")).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body: { achievements: [] },
    });
  });

  it("bad limit, bad cursor, a userId the events refuse, POST and /nope: 400/400/400/405/404 problems", async ({
    stack,
  }) => {
    const { env } = await seededUser(stack, "api-bad");
    const { request, metrics } = readApiOver(env);
    const problem = (status: number, type: string, extra: Record<string, unknown> = {}) => ({
      status,
      headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...extra },
      body: expect.objectContaining({ type, status, title: expect.any(String), detail: expect.any(String) }),
    });
    const invalid = problemTypes.invalidParameter.type;
    for (const [target, parameter] of [
      ["/users/api-bad/awards?limit=abc", "limit"],
      ["/users/api-bad/awards?limit=0", "limit"],
      ["/users/api-bad/awards?limit=101", "limit"],
      ["/users/api-bad/awards?cursor=not-ours", "cursor"],
      // Hand-made: the pre-digest shape, of this very user, naming a key the history never holds.
      [
        `/users/api-bad/awards?cursor=${Buffer.from('{"v":1,"u":"api-bad","k":"AWARD#9"}').toString("base64url")}`,
        "cursor",
      ],
      [`/users/${"u".repeat(257)}`, "userId"],
      [`/users/${"u".repeat(257)}/awards`, "userId"],
      [`/users/${"u".repeat(257)}/achievements`, "userId"],
      // A zone the runtime does not know (the reader's InvalidReadInput), and an empty one (the route's).
      ["/users/api-bad?timeZone=Mars/Olympus", "timeZone"],
      ["/users/api-bad?timeZone=Europe%2FAtlantis", "timeZone"],
      ["/users/api-bad?timeZone=", "timeZone"],
    ] as const) {
      const answer = await request("GET", target);
      expect(answer, target).toEqual(problem(400, invalid));
      expect(answer.body.parameter, target).toBe(parameter);
      expect(answer.body.detail, target).toMatch(new RegExp(`^${parameter}: `));
      // A detail quotes at most the first 64 characters of an input (core's quoteInput).
      if (target === `/users/${"u".repeat(257)}`)
        expect(answer.body.detail).toBe(
          `userId: must be 1 to 256 characters ("${"u".repeat(64)}…" (257 characters))`,
        );
      expect(answer.body.detail, target).not.toMatch(/u{65}/);
    }
    expect((await request("GET", "/users/api-bad?timeZone=Mars/Olympus")).body).toEqual({
      type: invalid,
      title: "Invalid parameter",
      status: 400,
      detail: 'timeZone: an IANA time zone such as "Europe/Paris" or "UTC", not "Mars/Olympus"',
      parameter: "timeZone",
    });
    expect(await request("POST", "/users/api-bad")).toEqual(
      problem(405, problemTypes.methodNotAllowed.type, { Allow: "GET" }),
    );
    expect(await request("DELETE", "/users/api-bad/awards")).toEqual(
      problem(405, problemTypes.methodNotAllowed.type, { Allow: "GET" }),
    );
    expect(await request("POST", "/users/api-bad/achievements")).toEqual(
      problem(405, problemTypes.methodNotAllowed.type, { Allow: "GET" }),
    );
    expect(await request("GET", "/nope")).toEqual(problem(404, problemTypes.notFound.type));
    expect(metrics.map((m) => [m["4xx"], m["5xx"]])).toEqual(Array(16).fill([1, 0]));
  });

  it("GET /board: the week's board as the library ranks it, pages joined by cursor, the week asked for; the profile's week and rank", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    // 64 shards, the writer's and the API's alike: bert's and dave's are past the default 32,
    // so an API that did not read REWARDS_BOARD_SHARDS would leave them off.
    const env: Record<string, string> = { ...table.env, REWARDS_BOARD_SHARDS: "64", LOG_LEVEL: "silent" };
    const [a, b, c, d] = ["api-board-anna", "api-board-bert", "api-board-cleo", "api-board-dave"] as const;
    expect([a, b, c, d].map((user) => boardShardOf(user, 64))).toEqual([15, 56, 26, 33]);
    const thisWeek = isoWeekOf(Date.now());
    const lastWeek = isoWeekPlus(thisWeek, -1);
    const shared = (user: string, slug: string) =>
      eventBody("article.shared", { userId: user, articleSlug: slug, channel: "x" });
    const today = new Date().toISOString().slice(0, 10);
    // Each batch sent twice: a copy is no second award.
    const twice = (bodies: string[]) => award(env, [...bodies, ...bodies]);
    await twice([completed(a, "1"), completed(a, "2"), completed(a, "3")]); // 60
    await twice([completed(b, "1"), eventBody("streak.day", { userId: b, day: today })]); // 30
    await twice([
      shared(c, "1"),
      shared(c, "2"),
      shared(c, "3"),
      shared(c, "4"),
      shared(c, "5"),
      shared(c, "6"),
    ]); // 30
    await twice([shared(d, "1")]); // 5
    // Earned last week (its event's time), paid now: last week's board only.
    const lastWeekTime = new Date(Date.now() - 7 * 86_400_000).toISOString();
    await award(env, [
      eventBody("article.completed", { userId: d, articleSlug: "old" }, { time: lastWeekTime }),
    ]);
    await writeHistoryOfStream(env, table.streamArn);

    const { request, logs } = readApiOver(env);
    const reader = createReader({
      tableName: table.tableName,
      client: createDynamoBaseClient(env),
      boardShards: 64,
    });
    const expected = [
      { rank: 1, userId: a, xp: 60 },
      { rank: 2, userId: b, xp: 30 },
      { rank: 2, userId: c, xp: 30 },
      { rank: 4, userId: d, xp: 5 },
    ];
    const ok = (body: unknown) => ({
      status: 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body,
    });
    expect(await request("GET", "/board")).toEqual(ok({ week: thisWeek, entries: expected }));
    expect((await request("GET", "/board/")).body).toEqual(await reader.board());
    expect(await request("GET", `/board?week=${lastWeek}`)).toEqual(
      ok({ week: lastWeek, entries: [{ rank: 1, userId: d, xp: 20 }] }),
    );
    // A week no one earned in: no entries, never a 404.
    const quiet = isoWeekPlus(thisWeek, -5);
    expect(await request("GET", `/board?week=${quiet}`)).toEqual(ok({ week: quiet, entries: [] }));

    // Pages of 3 join to the whole, the tie split across them keeping its rank; the last has no cursor.
    const first = await request("GET", `/board?week=${thisWeek}&limit=3`);
    expect(first.body).toEqual(await reader.board({ week: thisWeek, limit: 3 }));
    expect(first.body.entries).toEqual(expected.slice(0, 3));
    const cursor = encodeURIComponent(first.body.cursor);
    const second = await request("GET", `/board?limit=3&cursor=${cursor}`);
    expect(second).toEqual(ok({ week: thisWeek, entries: expected.slice(3) }));
    const byOne = [];
    let next: string | undefined;
    do {
      const page = await request("GET", `/board?limit=1${next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
      byOne.push(...page.body.entries);
      next = page.body.cursor;
    } while (next);
    expect(byOne).toEqual(expected);

    // The profile's week: this week's XP and rank; none for a reader with no XP this week.
    expect((await request("GET", `/users/${c}`)).body.week).toEqual({ week: thisWeek, xp: 30, rank: 2 });
    expect((await request("GET", `/users/${d}`)).body.week).toEqual({ week: thisWeek, xp: 5, rank: 4 });
    expect((await request("GET", "/users/api-board-nobody")).body.week).toEqual({ week: thisWeek, xp: 0 });
    // One log line per request, the route's template and never a user's id.
    expect(logs.filter((line) => line.route === "/board").map((line) => line.status)).toEqual(
      Array(6 + byOne.length).fill(200),
    );

    // Read with the default 32 shards, the board written over 64 misses bert and dave: the variable matters.
    const { REWARDS_BOARD_SHARDS: _, ...unset } = env;
    expect(
      (await readApiOver(unset).request("GET", "/board")).body.entries.map(
        (e: { userId: string }) => e.userId,
      ),
    ).toEqual([a, c]);
    expect(readReadApiConfig({ TABLE_NAME: "t" }).REWARDS_BOARD_SHARDS).toBe(32);
    expect(readReadApiConfig({ TABLE_NAME: "t", REWARDS_BOARD_SHARDS: "1000" }).REWARDS_BOARD_SHARDS).toBe(
      1000,
    );
  });

  it("GET /board refuses a bad week, limit or cursor (400 naming it) and other methods (405)", async ({
    stack,
  }) => {
    const { table, env, reader } = await seededUser(stack, "api-board-bad");
    // A second reader this week, so this week's board has a second page and its first a cursor.
    await award(env, [signup("api-board-bad-2")]);
    await writeHistoryOfStream(env, table.streamArn);
    const { request, metrics } = readApiOver(env);
    const thisWeek = isoWeekOf(Date.now());
    const firstPage = await request("GET", "/board?limit=1");
    expect(firstPage.body).toEqual({
      week: thisWeek,
      entries: [{ rank: 1, userId: "api-board-bad", xp: 110 }],
      cursor: expect.any(String),
    });
    const boardCursor = encodeURIComponent(firstPage.body.cursor);
    const historyCursor = (await reader.history("api-board-bad", { limit: 1 })).cursor as string;
    const problem = (status: number, type: string, extra: Record<string, unknown> = {}) => ({
      status,
      headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...extra },
      body: expect.objectContaining({ type, status, title: expect.any(String), detail: expect.any(String) }),
    });
    const invalid = problemTypes.invalidParameter.type;
    const pages = [
      ["/board?week=2025-W53", "week"],
      ["/board?week=2026-49", "week"],
      ["/board?week=2026-W49x", "week"],
      ["/board?week=", "week"],
      ["/board?limit=0", "limit"],
      ["/board?limit=101", "limit"],
      ["/board?limit=abc", "limit"],
      ["/board?cursor=abc", "cursor"],
      ["/board?cursor=", "cursor"],
      // This week's cursor for last week's board; a history's cursor; a board cursor edited.
      [`/board?week=${isoWeekPlus(thisWeek, -1)}&cursor=${boardCursor}`, "cursor"],
      [`/board?cursor=${encodeURIComponent(historyCursor)}`, "cursor"],
      [`/board?cursor=${boardCursor.slice(0, -2)}`, "cursor"],
    ] as const;
    for (const [target, parameter] of pages) {
      const answer = await request("GET", target);
      expect(answer, target).toEqual(problem(400, invalid));
      expect(answer.body.parameter, target).toBe(parameter);
      expect(answer.body.detail, target).toMatch(new RegExp(`^${parameter}: `));
    }
    expect((await request("GET", "/board?week=2025-W53")).body).toEqual({
      type: invalid,
      title: "Invalid parameter",
      status: 400,
      detail: 'week: an ISO week such as "2026-W49" (a year, "-W", a week of that year), not "2025-W53"',
      parameter: "week",
    });
    for (const method of ["POST", "PUT", "DELETE"])
      expect(await request(method, "/board"), method).toEqual(
        problem(405, problemTypes.methodNotAllowed.type, { Allow: "GET" }),
      );
    expect(await request("POST", "/board/?week=nope")).toEqual(
      problem(405, problemTypes.methodNotAllowed.type, { Allow: "GET" }),
    );
    expect(await request("GET", "/board/x")).toEqual(problem(404, problemTypes.notFound.type));
    expect(metrics.map((m) => [m["4xx"], m["5xx"]])).toEqual([[0, 0], ...Array(18).fill([1, 0])]);
  });

  it("throttled reads are a 503 with Retry-After, a missing table a 500: no stack, no AWS detail", async ({
    stack,
  }) => {
    const { env } = await seededUser(stack, "api-fail");
    const proxy = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [{ operation: "*", fault: "throttle", probability: 1 }],
      seed: 1,
    });
    try {
      const throttled = readApiOver({ ...env, AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint });
      for (const target of ["/users/api-fail", "/users/api-fail/awards"]) {
        const answer = await throttled.request("GET", target);
        expect(answer).toEqual({
          status: 503,
          headers: {
            "Content-Type": "application/problem+json",
            "Cache-Control": "no-store",
            "Retry-After": "1",
          },
          body: {
            type: problemTypes.unavailable.type,
            title: "Temporarily unavailable",
            status: 503,
            detail: "the rewards table could not be read just now; try again shortly",
          },
        });
      }
      // The cause is in the log, at error level, and only there.
      expect(throttled.logs.map((l) => [l.level, l.status])).toEqual([
        [50, 503],
        [50, 503],
      ]);
      expect(String(throttled.logs[0]?.error)).toMatch(/ProvisionedThroughputExceeded/);
      expect(throttled.metrics.map((m) => m["5xx"])).toEqual([1, 1]);
    } finally {
      await proxy.stop();
    }
    const missing = readApiOver({ ...env, TABLE_NAME: "no-such-table" });
    const answer = await missing.request("GET", "/users/api-fail");
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      type: problemTypes.internal.type,
      title: "Internal error",
      status: 500,
      detail: "the request could not be answered; the failure is in the read API's log",
    });
    // The log names the table (the reader's TableNotFoundError), the body does not.
    expect(missing.logs.map((l) => [l.level, l.status, l.error])).toEqual([
      [
        50,
        500,
        "TableNotFoundError: the table \"no-such-table\" does not exist where the reader's client looks: check tableName (the deploy output tableName) and the client's region and endpoint",
      ],
    ]);
    expect(JSON.stringify(answer)).not.toContain("no-such-table");
  });

  it("the drift check itself: a declared header missing, a header not declared, a wrong status or body fail it", () => {
    const problemOf = (status: number, type: string) => ({
      type: `https://rewards.dev/problems/${type}`,
      title: "t",
      status,
      detail: "d",
    });
    const problemHeaders = { "Content-Type": "application/problem+json", "Cache-Control": "no-store" };
    const unavailable = problemOf(503, "unavailable");
    expect(departures("/users/u", { status: 503, headers: problemHeaders, body: unavailable })).toEqual([
      "/users/{userId} 503: the declared header Retry-After is missing",
    ]);
    expect(
      departures("/users/u/awards", {
        status: 503,
        headers: { ...problemHeaders, "Retry-After": "soon" },
        body: unavailable,
      }),
    ).toEqual(['/users/{userId}/awards 503: header Retry-After: data must match pattern "^[0-9]+$"']);
    expect(
      departures("/users/u", {
        status: 405,
        headers: problemHeaders,
        body: problemOf(405, "method-not-allowed"),
      }),
    ).toEqual(["/users/{userId} 405: the declared header Allow is missing"]);
    expect(
      departures("/users/u", {
        status: 404,
        headers: { ...problemHeaders, Allow: "GET" },
        body: problemOf(404, "not-found"),
      }),
    ).toEqual(["/users/{userId} 404: the header allow is sent but not declared"]);
    expect(
      departures("/users/u/awards", {
        status: 200,
        headers: { "Content-Type": "application/json", "Cache-Control": "private" },
        body: { awards: [] },
      }),
    ).toEqual(["/users/{userId}/awards 200: header Cache-Control: data must be equal to constant"]);
    expect(
      departures("/users/u", { status: 418, headers: problemHeaders, body: problemOf(418, "internal") }),
    ).toEqual(["/users/{userId} 418: not a declared status"]);
    expect(departures("/nope", { status: 200, headers: {}, body: {} })).toEqual([
      "/nope 200: not a declared status",
    ]);
    expect(
      departures("/users/u/awards", {
        status: 200,
        headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
        body: "",
      }),
    ).toEqual(['/users/{userId}/awards 200: content type "text/plain" is not declared']);
    expect(
      departures("/users/u/awards", {
        status: 200,
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
        body: { awards: "none" },
      }),
    ).toEqual(["/users/{userId}/awards 200: body: data/awards must be array"]);

    // The board's answers, held both ways: what the document declares must be sent, what is sent declared.
    const json = { "Content-Type": "application/json", "Cache-Control": "no-store" };
    const page = { week: "2026-W49", entries: [{ rank: 1, userId: "u", xp: 60 }] };
    expect(departures("/board?limit=1", { status: 200, headers: json, body: page })).toEqual([]);
    expect(
      departures("/board", { status: 200, headers: { "Content-Type": "application/json" }, body: page }),
    ).toEqual(["/board 200: the declared header Cache-Control is missing"]);
    expect(
      departures("/board", { status: 200, headers: { ...json, "Retry-After": "1" }, body: page }),
    ).toEqual(["/board 200: the header retry-after is sent but not declared"]);
    expect(
      departures("/board", {
        status: 200,
        headers: json,
        body: { ...page, entries: [{ userId: "u", xp: 60 }] },
      }),
    ).toEqual(["/board 200: body: data/entries/0 must have required property 'rank'"]);
    expect(departures("/board", { status: 200, headers: json, body: { ...page, week: "2026-49" } })).toEqual([
      '/board 200: body: data/week must match pattern "^\\d{4}-W\\d{2}$"',
    ]);
    const weekProblem = { ...problemOf(400, "invalid-parameter"), parameter: "week" };
    expect(departures("/board?week=x", { status: 400, headers: problemHeaders, body: weekProblem })).toEqual(
      [],
    );
    expect(
      departures("/board", {
        status: 400,
        headers: problemHeaders,
        body: { ...weekProblem, parameter: "timezone" },
      }),
    ).toEqual(["/board 400: body: data/parameter must be equal to one of the allowed values"]);
    expect(
      departures("/board", { status: 400, headers: { ...problemHeaders, Allow: "GET" }, body: weekProblem }),
    ).toEqual(["/board 400: the header allow is sent but not declared"]);
    const notAllowed = problemOf(405, "method-not-allowed");
    expect(
      departures("/board", { status: 405, headers: { ...problemHeaders, Allow: "GET" }, body: notAllowed }),
    ).toEqual([]);
    expect(departures("/board", { status: 405, headers: problemHeaders, body: notAllowed })).toEqual([
      "/board 405: the declared header Allow is missing",
    ]);
    expect(
      departures("/board", { status: 405, headers: { ...problemHeaders, Allow: "POST" }, body: notAllowed }),
    ).toEqual(["/board 405: header Allow: data must be equal to constant"]);
    expect(departures("/board", { status: 201, headers: json, body: page })).toEqual([
      "/board 201: not a declared status",
    ]);
    expect(departures("/board/x", { status: 200, headers: json, body: page })).toEqual([
      "/board/x 200: not a declared status",
    ]);
  });

  it("its configuration is checked at start: every bad variable named at once", () => {
    expect(() => createReadApiDeps({ REWARDS_DAILY_XP_CAP: "-3" })).toThrow(
      "invalid configuration: REWARDS_DAILY_XP_CAP must be a positive whole number (unset it for no cap); TABLE_NAME is required",
    );
    // The history writer's shard count, as the writer takes it: a whole number from 1 to 1,000.
    for (const [shards, problem] of [
      ["0", "must be 1 or more"],
      ["1001", "must be 1,000 or fewer"],
      ["2.5", "must be a whole number"],
      ["many", "must be a whole number from 1 to 1,000 (the history writer's)"],
    ])
      expect(() => createReadApiDeps({ TABLE_NAME: "t", REWARDS_BOARD_SHARDS: shards }), shards).toThrow(
        `invalid configuration: REWARDS_BOARD_SHARDS ${problem}`,
      );
  });
});

describe("the read API as rewards dev serves it: a local function URL", () => {
  it(
    "answers over HTTP what the handler answers, and the Python example reads it (signed and not)",
    async ({ stack }) => {
      const { env, reader } = await seededUser(stack, "py-reader");
      const api = await startLocalReadApi({
        config: toolConfigFrom(env, "TABLE_NAME"),
        code: "source",
        onOutput: () => {},
      });
      try {
        const profile = await fetch(`${api.url}/users/py-reader`);
        expect(profile.status).toBe(200);
        expect(profile.headers.get("cache-control")).toBe("no-store");
        expect(await profile.json()).toEqual(await reader.profile("py-reader"));
        const paris = await fetch(`${api.url}/users/py-reader?timeZone=Europe/Paris`);
        expect(paris.status).toBe(200);
        expect(await paris.json()).toEqual(await reader.profile("py-reader", { timeZone: "Europe/Paris" }));
        const mars = await fetch(`${api.url}/users/py-reader?timeZone=Mars%2FOlympus`);
        expect([mars.status, mars.headers.get("content-type")]).toEqual([400, "application/problem+json"]);
        expect(((await mars.json()) as { parameter?: string }).parameter).toBe("timeZone");
        const achievements = await fetch(`${api.url}/users/py-reader/achievements`);
        expect(achievements.status).toBe(200);
        const earned = (await achievements.json()) as { achievements: Array<{ id: string }> };
        expect(earned).toEqual(await reader.achievements("py-reader"));
        // Earned from the stored state when the history's writer ran: 2 articles left, 110 XP.
        expect(earned.achievements.map((a) => a.id).sort()).toEqual(["first-article", "level-2"]);
        // The board over the local URL, with the shard count the deployment gives it (readApiEnvironment).
        const board = await fetch(`${api.url}/board?week=${isoWeekOf(Date.now())}`);
        expect([board.status, board.headers.get("content-type")]).toEqual([200, "application/json"]);
        expect(await board.json()).toEqual(await reader.board());
        const posted = await fetch(`${api.url}/board`, { method: "POST" });
        expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET"]);
        const nope = await fetch(`${api.url}/nope`, { method: "POST" });
        expect([nope.status, nope.headers.get("content-type")]).toEqual([404, "application/problem+json"]);

        const python = (args: string[], extra: Record<string, string> = {}) =>
          promisify(execFile)(pythonForMoto(), [new URL("examples/python/read.py", root).pathname, ...args], {
            env: { PATH: process.env.PATH ?? "", READER_URL: api.url, ...extra },
          }).catch((error: { code: number; stdout: string; stderr: string }) => error);
        // Signed with the stack's credentials (the local URL takes it), then unsigned (none found).
        const signed = await python(["profile", "py-reader"], {
          AWS_ACCESS_KEY_ID: "test",
          AWS_SECRET_ACCESS_KEY: "test",
          AWS_REGION: "us-east-1",
        });
        expect(JSON.parse(signed.stdout)).toEqual(await reader.profile("py-reader"));
        const all = await python(["awards", "py-reader", "--limit", "1", "--all"]);
        expect(JSON.parse(all.stdout)).toEqual({ awards: (await reader.history("py-reader")).awards });
        // The rest of what it reads, through the Python client (clients/python): the same JSON.
        const inParis = await python(["profile", "py-reader", "--time-zone", "Europe/Paris"]);
        expect(JSON.parse(inParis.stdout)).toEqual(
          await reader.profile("py-reader", { timeZone: "Europe/Paris" }),
        );
        const page = await python(["awards", "py-reader", "--limit", "1"]);
        const first = await reader.history("py-reader", { limit: 1 });
        expect(JSON.parse(page.stdout)).toEqual(first);
        const next = await python(["awards", "py-reader", "--limit", "1", "--cursor", first.cursor ?? ""]);
        expect(JSON.parse(next.stdout)).toEqual(
          await reader.history("py-reader", { limit: 1, cursor: first.cursor ?? "" }),
        );
        expect(JSON.parse((await python(["achievements", "py-reader"])).stdout)).toEqual(
          await reader.achievements("py-reader"),
        );
        const week = isoWeekOf(Date.now());
        expect(JSON.parse((await python(["board", "--week", week])).stdout)).toEqual(
          await reader.board({ week }),
        );
        expect(JSON.parse((await python(["rules"])).stdout)).toEqual(await reader.rules());
        // Without botocore (no site-packages: -S), it says what to install.
        const bare = await promisify(execFile)(
          pythonForMoto(),
          ["-S", new URL("examples/python/read.py", root).pathname, "profile", "u"],
          { env: { PATH: process.env.PATH ?? "", READER_URL: api.url } },
        ).catch((error: { code: number; stdout: string; stderr: string }) => error);
        expect(bare).toMatchObject({
          code: 2,
          stdout: "",
          stderr: "read.py needs botocore to sign requests: python3 -m pip install botocore\n",
        });
        // Bad input: refused by the client before any request, as the reader library refuses it (a usage error).
        const refused = await python(["awards", "py-reader", "--limit", "0"]);
        expect(refused).toMatchObject({
          code: 2,
          stdout: "",
          stderr: "read.py: limit: an integer from 1 to 100, not 0\n",
        });
        // What only the API can judge (this cursor is another user's): its 400, a usage error too.
        const theirs = await python(["awards", "someone-else", "--cursor", first.cursor ?? ""]);
        expect(theirs).toMatchObject({ code: 2, stdout: "" });
        expect(theirs.stderr).toMatch(/^read\.py: cursor: not a cursor this reader gave/);
      } finally {
        await api.stop();
      }
    },
    HANG_GUARD_MS,
  );
  it(
    "the deployable bundle (packages/read-api/dist/handler.mjs) answers as the source does",
    async ({ stack }) => {
      const { env, reader } = await seededUser(stack, "bundled");
      const api = await startLocalReadApi({
        config: toolConfigFrom(env, "TABLE_NAME"),
        code: "artifact",
        onOutput: () => {},
      });
      try {
        const page = await fetch(`${api.url}/users/bundled/awards?limit=3`);
        expect(await page.json()).toEqual(await reader.history("bundled", { limit: 3 }));
        const board = await fetch(`${api.url}/board?limit=1`);
        expect([board.status, board.headers.get("cache-control")]).toEqual([200, "no-store"]);
        expect(await board.json()).toEqual({
          week: isoWeekOf(Date.now()),
          entries: [{ rank: 1, userId: "bundled", xp: 110 }],
        });
        const bad = await fetch(`${api.url}/users/bundled/awards?limit=x`);
        expect([bad.status, ((await bad.json()) as { parameter?: string }).parameter]).toEqual([
          400,
          "limit",
        ]);
      } finally {
        await api.stop();
      }
    },
    HANG_GUARD_MS,
  );
});
