import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { revokeIntent } from "@rewards/cli";
import { grantId } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { createReader, type HistoryAward, type HistoryPage } from "@rewards/reader";
import { completed, signup, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

// @rewards/reader against the local stack (SPEC §12): what a site reads after real awards.

const it = stackTest();

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
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: "initialize" },
  );
  return { client, sent };
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
      level: { level: 2, xpFloor: 100, xpNext: 250 },
      today: { day: today, xp: 30, cap: 30, left: 0 },
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(sent).toEqual(["BatchGetItemCommand"]);

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

  it("an unknown user is a new reader; bad input is a RangeError naming it, and nothing is read", async ({
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
      level: { level: 1, xpFloor: 0, xpNext: 100 },
      today: { day, xp: 0 },
    });
    expect(await reader.history("never-seen")).toEqual({ awards: [] });

    await award(table.env, [completed("someone", "a"), completed("someone", "b")]);
    await writeHistoryOfStream(table.env, table.streamArn);
    const { cursor } = await reader.history("someone", { limit: 1 });
    expect(cursor).toEqual(expect.any(String));

    sent.length = 0;
    const refused: Array<[() => Promise<unknown>, RegExp]> = [
      [() => reader.profile(""), /^userId: /],
      [() => reader.profile("u".repeat(257)), /^userId: /],
      [() => reader.history("someone", { limit: 0 }), /^limit: /],
      [() => reader.history("someone", { limit: 101 }), /^limit: /],
      [() => reader.history("someone", { limit: 1.5 }), /^limit: /],
      [() => reader.history("someone", { cursor: "not-ours" }), /^cursor: /],
      // Another user's cursor is not a cursor of this history.
      [() => reader.history("never-seen", { ...(cursor ? { cursor } : {}) }), /^cursor: /],
    ];
    for (const [read, message] of refused) {
      const error = await read().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(message);
    }
    expect(sent).toEqual([]);
  });

  it("a read right after an award sees it (strongly consistent), before the history has it", async ({
    stack,
  }) => {
    const table = await ownTable(stack);
    const reader = createReader({ tableName: table.tableName, client: countingClient(table.env).client });
    await award(table.env, [completed("fresh", "a")]);
    expect(await reader.profile("fresh")).toMatchObject({ xp: 20, awards: 1 });
    // The history is written from the stream, after the commit (§12's lag).
    expect(await reader.history("fresh")).toEqual({ awards: [] });
    await writeHistoryOfStream(table.env, table.streamArn);
    expect((await reader.history("fresh")).awards).toHaveLength(1);
  });
});
