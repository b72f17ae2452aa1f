import { randomUUID } from "node:crypto";
import {
  type AttributeValue,
  type BatchGetItemCommandInput,
  type BatchGetItemCommandOutput,
  DynamoDBClient,
} from "@aws-sdk/client-dynamodb";
import { grantId, isoWeekOf } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { revokeIntent } from "@rewards/ops";
import {
  createReader,
  type HistoryAward,
  type HistoryPage,
  InvalidReaderOption,
  InvalidReadInput,
  TableNotFoundError,
  ThrottledReadError,
} from "@rewards/reader";
import { completed, signup, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

// @rewards/reader against the local stack (docs/reading.md): what a site reads after real awards.

const it = stackTest();

const thisWeek = isoWeekOf(Date.now());
/** The profile's rank reads: one query of each of the board's 32 shards, in parallel. */
const boardQueries = Array(32).fill("QueryCommand:board");
/** How many commands of each kind were sent. */
const tally = (sent: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const name of sent) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
};

/** A real client that records the name of every command it sends: the reader's round trips. */
function countingClient(env: Record<string, string>) {
  const client = new DynamoDBClient({
    region: env.AWS_REGION,
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  const sent: string[] = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      // The board's shard queries are told apart from the profile's and the history's.
      const index = (args.input as { IndexName?: string }).IndexName;
      sent.push(index === undefined ? String(context.commandName) : `${context.commandName}:${index}`);
      return next(args);
    },
    { step: "initialize" },
  );
  return { client, sent };
}

/**
 * Keys a BatchGetItem leaves unprocessed (DynamoDB's answer to throttling), which the local
 * stack never does: while `withholding()` says so, the profile's key is held back from each
 * BatchGetItem — the other keys are asked of the stack — and answered as unprocessed. Returns
 * the sort keys each BatchGetItem asked for, and when.
 */
function unprocessedProfileKey(client: DynamoDBClient, withholding: () => boolean) {
  const calls: Array<{ keys: string[]; at: number }> = [];
  type Next = (args: { input: BatchGetItemCommandInput }) => Promise<{ output: BatchGetItemCommandOutput }>;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "BatchGetItemCommand") return next(args);
      const input = args.input as BatchGetItemCommandInput;
      const [table, request] = Object.entries(input.RequestItems ?? {})[0] ?? [];
      if (table === undefined || request?.Keys === undefined) throw new Error("no keys asked");
      const sortKey = (key: Record<string, AttributeValue>) => key.sk?.S ?? "";
      calls.push({ keys: request.Keys.map(sortKey), at: performance.now() });
      if (!withholding()) return next(args);
      const held = request.Keys.filter((key) => sortKey(key) === "PROFILE");
      const asked = request.Keys.filter((key) => sortKey(key) !== "PROFILE");
      const answer =
        asked.length === 0
          ? { output: { Responses: { [table]: [] }, $metadata: {} } as BatchGetItemCommandOutput }
          : await (next as unknown as Next)({
              ...args,
              input: { ...input, RequestItems: { [table]: { ...request, Keys: asked } } },
            });
      answer.output.UnprocessedKeys = held.length > 0 ? { [table]: { ...request, Keys: held } } : {};
      return answer as Awaited<ReturnType<typeof next>>;
    },
    { step: "initialize", name: "unprocessedProfileKey" },
  );
  return calls;
}

/** What `read` rejects with (a failure when it does not). */
async function rejection(read: () => Promise<unknown>): Promise<unknown> {
  return read().then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function allPages(read: (cursor?: string) => Promise<HistoryPage>): Promise<HistoryAward[]> {
  const awards: HistoryAward[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    awards.push(...page.awards);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return awards;
}

describe("@rewards/reader on the local stack", () => {
  it("gives XP, level, today and every award (new, repeated, capped, revoked), newest first, in pages", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "30" };
    const user = `r-${randomUUID().slice(0, 6)}`;
    // Three batches, so the awards have three commit instants.
    await award(env, [completed(user, "a")]);
    await award(env, [completed(user, "a"), completed(user, "b"), completed(user, "c")]);
    await award(env, [signup(user)]);
    const revoked = await revokeIntent(1, `${user}#a#article.completed`, {
      dynamo: createDynamoClient(env),
      tableName: table.tableName,
      reason: "producer bug",
      dryRun: false,
    });
    expect(revoked).toMatchObject({ verdict: "revoked" });
    await writeHistoryOfStream(env, table.streamArn);

    const { client, sent } = countingClient(env);
    const reader = createReader({ tableName: table.tableName, client, dailyCap: 30 });
    const today = new Date().toISOString().slice(0, 10);

    // a 20 (revoked), b 10 of 20, c 0 of 20 (capped), signup 100: 110 XP in 3 awards.
    expect(await reader.profile(user)).toEqual({
      userId: user,
      xp: 110,
      awards: 3,
      // The revoked a is taken off its type's count; the capped c (0 XP) is in it.
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 1 },
      streak: { current: 0, longest: 0 },
      level: { level: 2, xpFloor: 100, xpNext: 250 },
      today: { day: today, xp: 30, cap: 30, left: 0 },
      // Earned this week: 20 revoked, 10, 0 and 100; alone on the table's board.
      week: { week: thisWeek, xp: 110, rank: 1 },
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(sent).toEqual(["BatchGetItemCommand", ...boardQueries]);

    // A cap lowered below what was paid today leaves nothing, never a negative allowance.
    const lowered = createReader({ tableName: table.tableName, client, dailyCap: 20 });
    expect((await lowered.profile(user)).today).toEqual({ day: today, xp: 30, cap: 20, left: 0 });
    // Without a cap, today comes from the history, counted as the cap counts it: the same 30.
    const uncapped = createReader({ tableName: table.tableName, client });
    expect((await uncapped.profile(user)).today).toEqual({ day: today, xp: 30 });

    sent.length = 0;
    const page = await reader.history(user, { limit: 100 });
    expect(sent).toEqual(["QueryCommand"]);
    expect(page.cursor).toBeUndefined();
    // b and c share a commit instant: newest first, then by grant id, descending.
    const second = page.awards[1]?.awardedAt ?? "";
    const [later, earlier] = [
      { slug: "b", xp: 10 },
      { slug: "c", xp: 0 },
    ].sort((x, y) =>
      grantId(`${user}#${x.slug}#article.completed`, second) >
      grantId(`${user}#${y.slug}#article.completed`, second)
        ? -1
        : 1,
    );
    expect(page.awards.map((a) => [a.type, a.data, a.xp, a.requestedXp, a.revokedReason])).toEqual([
      ["signup.completed", {}, 100, undefined, undefined],
      ["article.completed", { articleSlug: later?.slug }, later?.xp, 20, undefined],
      ["article.completed", { articleSlug: earlier?.slug }, earlier?.xp, 20, undefined],
      ["article.completed", { articleSlug: "a" }, 20, undefined, "producer bug"],
    ]);
    const [signupAward, , , first] = page.awards;
    expect(signupAward?.id).toBe(grantId(`${user}#signup.completed`, signupAward?.awardedAt ?? ""));
    expect(first).toEqual({
      id: grantId(`${user}#a#article.completed`, first?.awardedAt ?? ""),
      type: "article.completed",
      data: { articleSlug: "a" },
      xp: 20,
      eventId: expect.stringMatching(/^evt-/),
      eventTime: expect.stringMatching(/^\d{4}-/),
      earnedOn: today,
      awardedAt: expect.stringMatching(/^\d{4}-/),
      revokedAt: expect.stringMatching(/^\d{4}-/),
      revokedReason: "producer bug",
    });
    const instants = page.awards.map((a) => a.awardedAt);
    expect([...instants].sort().reverse()).toEqual(instants);

    // Pages of 1, 2 and 3 joined by their cursors are the one long page.
    for (const limit of [1, 2, 3]) {
      sent.length = 0;
      const joined = await allPages((cursor) =>
        reader.history(user, { limit, ...(cursor ? { cursor } : {}) }),
      );
      expect(joined, `limit ${limit}`).toEqual(page.awards);
      expect(sent, `limit ${limit}: one Query a page`).toEqual(
        Array(Math.ceil(4 / limit)).fill("QueryCommand"),
      );
    }
    // The default page is 20.
    expect((await reader.history(user)).awards).toEqual(page.awards);
  });

  it("an unknown user is a new reader; bad input is InvalidReadInput naming its parameter, and nothing is read", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const { client, sent } = countingClient(table.env);
    const reader = createReader({ tableName: table.tableName, client });
    const day = new Date().toISOString().slice(0, 10);
    expect(await reader.profile("never-seen")).toEqual({
      userId: "never-seen",
      xp: 0,
      awards: 0,
      counts: { "article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
      streak: { current: 0, longest: 0 },
      level: { level: 1, xpFloor: 0, xpNext: 100 },
      today: { day, xp: 0 },
      week: { week: thisWeek, xp: 0 },
    });
    expect(await reader.history("never-seen")).toEqual({ awards: [] });
    // From plain JavaScript, null options are no options, not a TypeError.
    expect(await reader.history("never-seen", null as unknown as undefined)).toEqual({ awards: [] });

    await award(table.env, [completed("someone", "a"), completed("someone", "b")]);
    await writeHistoryOfStream(table.env, table.streamArn);
    const { cursor } = await reader.history("someone", { limit: 1 });
    expect(cursor).toEqual(expect.any(String));

    sent.length = 0;
    const ours = JSON.parse(Buffer.from(cursor ?? "", "base64url").toString()) as { k: string; d: string };
    const handMade = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const refused: Array<[() => Promise<unknown>, "userId" | "limit" | "cursor"]> = [
      [() => reader.profile(""), "userId"],
      [() => reader.profile("u".repeat(257)), "userId"],
      [() => reader.history("someone", { limit: 0 }), "limit"],
      [() => reader.history("someone", { limit: 101 }), "limit"],
      [() => reader.history("someone", { limit: 1.5 }), "limit"],
      [() => reader.history("someone", { cursor: "not-ours" }), "cursor"],
      // Another user's cursor is not a cursor of this history.
      [() => reader.history("never-seen", { ...(cursor ? { cursor } : {}) }), "cursor"],
      // Hand-made, of this very user: the pre-digest shape, then ours with its key edited.
      [() => reader.history("someone", { cursor: handMade({ v: 1, u: "someone", k: "AWARD#9" }) }), "cursor"],
      [() => reader.history("someone", { cursor: handMade({ v: 2, k: "AWARD#9", d: ours.d }) }), "cursor"],
    ];
    for (const [read, parameter] of refused) {
      const error = await rejection(read);
      expect(error).toBeInstanceOf(InvalidReadInput);
      expect(error).toBeInstanceOf(RangeError);
      expect(error).toMatchObject({
        parameter,
        message: expect.stringMatching(new RegExp(`^${parameter}: `)),
      });
    }
    // A message quotes at most the first 64 characters of an input (core's quoteInput).
    expect(await rejection(() => reader.profile("u".repeat(257)))).toMatchObject({
      message: `userId: must be 1 to 256 characters ("${"u".repeat(64)}…" (257 characters))`,
    });
    expect(sent).toEqual([]);
  });

  it("a table that is not there is named: TableNotFoundError, for each kind of read", async ({ stack }) => {
    const table = await ownTable(stack);
    const { client, sent } = countingClient(table.env);
    const message =
      "the table \"no-such-table\" does not exist where the reader's client looks: check tableName (the deploy output tableName) and the client's region and endpoint";
    for (const [reader, read] of [
      [createReader({ tableName: "no-such-table", client }), "profile"],
      [createReader({ tableName: "no-such-table", client, dailyCap: 30 }), "profile"],
      [createReader({ tableName: "no-such-table", client }), "history"],
    ] as const) {
      const error = await rejection(() => (read === "profile" ? reader.profile("u1") : reader.history("u1")));
      expect(error).toBeInstanceOf(TableNotFoundError);
      expect(error).toMatchObject({
        name: "TableNotFoundError",
        tableName: "no-such-table",
        message,
        cause: { name: "ResourceNotFoundException" },
      });
    }
    // Asked once each (no retry mends a wrong name): BatchGetItem ∥ Query ∥ the board's shards,
    // BatchGetItem ∥ the board's shards, Query.
    expect(tally(sent)).toEqual({ BatchGetItemCommand: 2, QueryCommand: 2, "QueryCommand:board": 64 });
  });

  it("dailyCap 0, as the deploy outputs no cap, is no cap; text is refused at creation, quoted", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award({ ...table.env, REWARDS_DAILY_XP_CAP: "30" }, [
      completed("cap-zero", "a"),
      completed("cap-zero", "b"),
    ]);
    await writeHistoryOfStream(table.env, table.streamArn);
    const { client, sent } = countingClient(table.env);
    const zero = await createReader({ tableName: table.tableName, client, dailyCap: 0 }).profile("cap-zero");
    const none = await createReader({ tableName: table.tableName, client }).profile("cap-zero");
    expect(zero).toEqual(none);
    expect(zero.today).toEqual({ day: new Date().toISOString().slice(0, 10), xp: 30 });
    // Read as without a cap: a BatchGetItem of the profile, kept days and week, a Query of today's
    // history and the board's shards, each time.
    expect(tally(sent)).toEqual({ BatchGetItemCommand: 2, QueryCommand: 2, "QueryCommand:board": 64 });

    let error: unknown;
    try {
      createReader({ tableName: table.tableName, dailyCap: "50" as unknown as number });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidReaderOption);
    expect(error).toMatchObject({
      option: "dailyCap",
      message:
        'dailyCap: a whole number of XP, 0 or absent for no cap (the deploy output dailyXpCap), not "50"',
    });
  });

  it("keys BatchGetItem leaves unprocessed for 50 ms are asked again, after waits, until read", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award({ ...table.env, REWARDS_DAILY_XP_CAP: "30" }, [
      completed("slow", "a"),
      completed("slow", "b"),
    ]);
    const { client } = countingClient(table.env);
    let firstAt: number | undefined;
    const calls = unprocessedProfileKey(client, () => {
      firstAt ??= performance.now();
      return performance.now() - firstAt < 50;
    });
    const reader = createReader({ tableName: table.tableName, client, dailyCap: 30 });
    const profile = await reader.profile("slow");
    // The profile's XP came from the key held back: it was asked again and read.
    expect(profile).toEqual({
      userId: "slow",
      xp: 30,
      awards: 2,
      counts: { "article.completed": 2, "article.shared": 0, "streak.day": 0, "signup.completed": 0 },
      streak: { current: 0, longest: 0 },
      level: { level: 1, xpFloor: 0, xpNext: 100 },
      today: { day: new Date().toISOString().slice(0, 10), xp: 30, cap: 30, left: 0 },
      // No history written: no week yet.
      week: { week: thisWeek, xp: 0 },
      updatedAt: expect.stringMatching(/^\d{4}-/),
    });
    const day = `DAY#${profile.today.day}`;
    // A new reader reads the rules' CURRENT in the same call (docs/reading.md#the-rules).
    expect(calls[0]?.keys).toEqual(["PROFILE", "PROGRESS", `WEEK#${thisWeek}`, day, "CURRENT"]);
    // Every call after the first asked for the held key alone, the last one past the 50 ms.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.slice(1).map((call) => call.keys)).toEqual(Array(calls.length - 1).fill(["PROFILE"]));
    expect((calls.at(-1)?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(50);
  });

  it("keys never processed: ThrottledReadError once the backoff's bound (8 calls, 1 s of waits) is reached", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    await award({ ...table.env, REWARDS_DAILY_XP_CAP: "30" }, [completed("stuck", "a")]);
    const { client } = countingClient(table.env);
    const calls = unprocessedProfileKey(client, () => true);
    const reader = createReader({ tableName: table.tableName, client, dailyCap: 30 });
    const started = performance.now();
    const error = await rejection(() => reader.profile("stuck"));
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(ThrottledReadError);
    const { unprocessed, calls: made, elapsedMs } = error as ThrottledReadError;
    expect({ unprocessed, calls: made }).toEqual({ unprocessed: 1, calls: calls.length });
    expect((error as Error).message).toBe(
      `BatchGetItem left 1 key(s) unprocessed after ${made} calls over ${elapsedMs} ms (throttled): try again later`,
    );
    // Within the bound: at most 8 calls; the calls spread out by the waits. The first four
    // waits' ceilings add up to 375 ms: 5 calls at least, whatever is drawn. (That no wait ends
    // past 1 s is the pure policy's test, unprocessedKeysBackoff.test.ts: a wall-clock bound
    // here would measure the machine's load.) The reader's elapsedMs is whole milliseconds.
    expect(made).toBeGreaterThanOrEqual(5);
    expect(made).toBeLessThanOrEqual(8);
    expect((calls.at(-1)?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(50);
    expect(elapsedMs).toBeLessThanOrEqual(Math.ceil(took));
  });

  it("a read right after an award sees it (strongly consistent), before the history has it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const reader = createReader({ tableName: table.tableName, client: countingClient(table.env).client });
    await award(table.env, [completed("fresh", "a")]);
    expect(await reader.profile("fresh")).toMatchObject({ xp: 20, awards: 1 });
    // The history is written from the stream, after the commit (docs/history.md: its lag).
    expect(await reader.history("fresh")).toEqual({ awards: [] });
    await writeHistoryOfStream(table.env, table.streamArn);
    expect((await reader.history("fresh")).awards).toHaveLength(1);
  });
});
