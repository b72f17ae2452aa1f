import { DynamoDBDocumentClient, type ScanCommandInput } from "@aws-sdk/lib-dynamodb";
import { guardKey } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { awardPages, listAwards } from "../src/awards/awardPages";
import { awardsCursor, readAwardsCursor } from "../src/awards/awardsCursor";
import { awardLines, describeAwards } from "../src/awards/awardWords";

/** A guard item as the worker writes it. */
const guard = (key: string, overrides: Record<string, unknown> = {}) => ({
  ...guardKey(key),
  userId: "u1",
  type: "article.completed",
  amount: 20,
  eventId: `evt-${key}`,
  awardedAt: "2026-12-01T09:00:00.000Z",
  ...overrides,
});

interface Page {
  Items: Record<string, unknown>[];
  LastEvaluatedKey?: Record<string, unknown>;
  ConsumedCapacity?: { CapacityUnits: number };
  ScannedCount: number;
}

/** A document client answering each Scan with the next of `pages`, keeping what it was asked. */
function scanning(pages: Page[]) {
  const asked: ScanCommandInput[] = [];
  // The SDK's paginator only pages a real DocumentClient: one whose send is ours.
  const dynamo = Object.assign(Object.create(DynamoDBDocumentClient.prototype) as DynamoDBDocumentClient, {
    async send(command: { input: ScanCommandInput }) {
      asked.push(structuredClone(command.input));
      const page = pages[asked.length - 1];
      if (!page) throw new Error("no more pages");
      return page;
    },
  });
  return { dynamo, asked };
}

const NOW = Date.parse("2026-12-02T00:00:00Z");
const filter = { type: "article.completed" };
const all = async <T>(pages: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
};
const keyOf = (cursor: string | undefined) => {
  const read = readAwardsCursor(cursor ?? "", filter, "t");
  return read.ok ? read.key : read.reason;
};

describe("awardPages: the live guards a filter names, paged, resumable", () => {
  it("asks DynamoDB for the filter, live guards only, the read units, and resumes after the cursor's key", async () => {
    const { dynamo, asked } = scanning([
      { Items: [], ScannedCount: 0, ConsumedCapacity: { CapacityUnits: 0.5 } },
    ]);
    const since = new Date("2026-11-01T00:00:00Z");
    const until = new Date("2026-12-01T00:00:00Z");
    await all(
      awardPages(
        dynamo,
        "t",
        { type: "streak.day", userId: "u9", since, until },
        { now: NOW + 999, from: guardKey("u9#2026-11-02#streak.day") },
      ),
    );
    expect(asked).toEqual([
      {
        TableName: "t",
        FilterExpression:
          "begins_with(pk, :guard) AND sk = :idem AND awardedAt >= :since AND awardedAt <= :until AND userId = :user AND #type = :type AND (attribute_not_exists(expiresAt) OR expiresAt >= :liveAt)",
        ExpressionAttributeValues: {
          ":guard": "IDEM#",
          ":idem": "IDEM",
          ":since": "2026-11-01T00:00:00.000Z",
          ":until": "2026-12-01T00:00:00.000Z",
          ":user": "u9",
          ":type": "streak.day",
          ":liveAt": NOW / 1000,
        },
        ExpressionAttributeNames: { "#type": "type" },
        ReturnConsumedCapacity: "TOTAL",
        ExclusiveStartKey: guardKey("u9#2026-11-02#streak.day"),
        Limit: 250,
      },
    ]);
  });

  it("lists each guard as an award, sums the reported units, and ends without a cursor", async () => {
    const { dynamo, asked } = scanning([
      {
        Items: [
          guard("u1#a#article.completed"),
          guard("u1#b#article.completed", { amount: 0, requested: 20 }),
        ],
        LastEvaluatedKey: guardKey("u1#b#article.completed"),
        ConsumedCapacity: { CapacityUnits: 2.5 },
        ScannedCount: 250,
      },
      {
        Items: [
          guard("u2#c#article.completed", {
            userId: "u2",
            revokedAt: "2026-12-01T10:00:00.000Z",
            revokedReason: "bug",
          }),
          guard("u3#x#article.completed", { type: "No Such Type" }),
        ],
        ConsumedCapacity: { CapacityUnits: 1 },
        ScannedCount: 40,
      },
    ]);
    const pages = await all(awardPages(dynamo, "t", filter, { now: NOW }));
    expect(asked[1]?.ExclusiveStartKey).toEqual(guardKey("u1#b#article.completed"));
    expect(pages).toEqual([
      {
        awards: [
          {
            intentKey: "u1#a#article.completed",
            userId: "u1",
            type: "article.completed",
            xp: 20,
            eventId: "evt-u1#a#article.completed",
            awardedAt: "2026-12-01T09:00:00.000Z",
          },
          {
            intentKey: "u1#b#article.completed",
            userId: "u1",
            type: "article.completed",
            xp: 0,
            requested: 20,
            eventId: "evt-u1#b#article.completed",
            awardedAt: "2026-12-01T09:00:00.000Z",
          },
        ],
        unreadable: [],
        cursor: awardsCursor(guardKey("u1#b#article.completed"), filter, "t"),
        readUnits: 2.5,
        estimated: false,
      },
      {
        awards: [
          {
            intentKey: "u2#c#article.completed",
            userId: "u2",
            type: "article.completed",
            xp: 20,
            eventId: "evt-u2#c#article.completed",
            awardedAt: "2026-12-01T09:00:00.000Z",
            revokedAt: "2026-12-01T10:00:00.000Z",
            revokedReason: "bug",
          },
        ],
        unreadable: [{ pk: "IDEM#u3#x#article.completed", reason: expect.stringMatching(/^type: /) }],
        readUnits: 1,
        estimated: false,
      },
    ]);
    expect(awardLines(pages[1]?.awards ?? [], true)).toBe('{"intentKey":"u2#c#article.completed"}\n');
    expect(awardLines(pages[0]?.awards ?? [], false)).toBe(
      '"u1#a#article.completed": user u1, article.completed, 20 XP, event evt-u1#a#article.completed, awarded at 2026-12-01T09:00:00.000Z\n' +
        '"u1#b#article.completed": user u1, article.completed, 0 of 20 XP (cap), event evt-u1#b#article.completed, awarded at 2026-12-01T09:00:00.000Z\n',
    );
  });

  it("estimates a page's units when DynamoDB does not say: what it scanned, at the returned items' size", async () => {
    const item = guard("u1#a#article.completed");
    const bytes = Buffer.byteLength(JSON.stringify(item));
    const { dynamo } = scanning([
      { Items: [item], ScannedCount: 100, LastEvaluatedKey: item },
      { Items: [], ScannedCount: 0 },
    ]);
    const pages = await all(awardPages(dynamo, "t", filter, { now: NOW }));
    // 100 items of `bytes` each, rounded up to 4 KB, half a unit per 4 KB (eventually consistent).
    expect(pages.map(({ readUnits, estimated }) => ({ readUnits, estimated }))).toEqual([
      { readUnits: Math.ceil((100 * bytes) / 4096) / 2, estimated: true },
      { readUnits: 0.5, estimated: true },
    ]);
    expect(Math.ceil((100 * bytes) / 4096) / 2).toBeGreaterThan(0.5);
  });

  it("--limit cuts a page after its last award, whose own key is the cursor; at a page's end, the page's", async () => {
    const items = ["a", "b", "c"].map((slug) => guard(`u1#${slug}#article.completed`));
    const pages = [
      { Items: items, LastEvaluatedKey: guardKey("u1#z#article.completed"), ScannedCount: 250 },
      { Items: [guard("u1#d#article.completed")], ScannedCount: 1 },
    ];
    const cut = await all(awardPages(scanning(pages).dynamo, "t", filter, { now: NOW, limit: 2 }));
    expect(cut.map((page) => page.awards.map((a) => a.intentKey))).toEqual([
      ["u1#a#article.completed", "u1#b#article.completed"],
    ]);
    expect(keyOf(cut[0]?.cursor)).toEqual(guardKey("u1#b#article.completed"));

    const atEnd = await all(awardPages(scanning(pages).dynamo, "t", filter, { now: NOW, limit: 3 }));
    expect(atEnd).toHaveLength(1);
    expect(keyOf(atEnd[0]?.cursor)).toEqual(guardKey("u1#z#article.completed"));

    const over = await all(awardPages(scanning(pages).dynamo, "t", filter, { now: NOW, limit: 4 }));
    expect(over.map((page) => page.awards.length)).toEqual([3, 1]);
    expect(over[1]?.cursor).toBeUndefined();
  });

  it("listAwards hands each page over before reading the next, and stops after the page a stop arrived in", async () => {
    const { dynamo, asked } = scanning([
      { Items: [guard("u1#a#article.completed")], LastEvaluatedKey: guardKey("u1#q#x"), ScannedCount: 250 },
      { Items: [guard("u1#b#article.completed")], ScannedCount: 3 },
    ]);
    const shown: string[][] = [];
    let stop = false;
    const listing = await listAwards(dynamo, "t", filter, {
      now: NOW,
      onPage: async (awards) => {
        shown.push(awards.map((a) => a.intentKey));
        expect(asked).toHaveLength(shown.length); // the next page is not read yet
        stop = true;
      },
      stop: () => stop,
    });
    expect(shown).toEqual([["u1#a#article.completed"]]);
    expect(listing).toEqual({
      listed: 1,
      readUnits:
        Math.ceil((250 * Buffer.byteLength(JSON.stringify(guard("u1#a#article.completed")))) / 4096) / 2,
      estimated: true,
      unreadable: [],
      cursor: awardsCursor(guardKey("u1#q#x"), filter, "t"),
    });
    expect(describeAwards(listing, "SIGINT")).toBe(
      `1 award listed; ${listing.readUnits} read units (estimated: DynamoDB did not say)\n` +
        `stopped by SIGINT before the end of the table: go on with --from ${listing.cursor}\n`,
    );

    const whole = await listAwards(
      scanning([{ Items: [], ScannedCount: 7, ConsumedCapacity: { CapacityUnits: 1 } }]).dynamo,
      "t",
      filter,
      {
        now: NOW,
        onPage: async () => {},
      },
    );
    expect(whole).toEqual({ listed: 0, readUnits: 1, estimated: false, unreadable: [] });
    expect(describeAwards(whole, "")).toBe("0 awards listed; 1 read unit (as DynamoDB reported)\n");
  });
});

describe("the cursor", () => {
  const key = guardKey("u1#a#article.completed");

  it("reads back the key it was printed with, for the same filter only", () => {
    const cursor = awardsCursor(key, { type: "streak.day", userId: "u1", since: new Date(0) }, "t");
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readAwardsCursor(cursor, { type: "streak.day", userId: "u1", since: new Date(0) }, "t")).toEqual({
      ok: true,
      key,
    });
    for (const other of [
      { type: "streak.day", userId: "u1" },
      { type: "streak.day", userId: "u2", since: new Date(0) },
    ])
      expect(readAwardsCursor(cursor, other, "t")).toEqual({
        ok: false,
        reason:
          "a cursor of another listing: give the --type, --user, --since and --until it was printed with, on the same TABLE_NAME",
      });
    // Another stage's table: the same filter, another listing.
    expect(
      readAwardsCursor(cursor, { type: "streak.day", userId: "u1", since: new Date(0) }, "prod"),
    ).toEqual({
      ok: false,
      reason:
        "a cursor of another listing: give the --type, --user, --since and --until it was printed with, on the same TABLE_NAME",
    });
  });

  it("refuses what no listing printed", () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const digest = JSON.parse(Buffer.from(awardsCursor(key, filter, "t"), "base64url").toString()).filter;
    expect(readAwardsCursor(encode({ key, filter: digest }), filter, "t")).toEqual({ ok: true, key });
    for (const text of [
      "not base64 at all!",
      encode("text"),
      encode({ key }),
      encode({ key: { pk: "IDEM#x" }, filter: digest }),
      encode({ key: { ...key, extra: "x" }, filter: digest }),
      encode({ key: { ...key, sk: 1 }, filter: digest }),
      encode({ key, filter: digest, more: 1 }),
    ])
      expect(readAwardsCursor(text, filter, "t"), text).toEqual({
        ok: false,
        reason: "not a cursor `rewards awards` printed",
      });
  });
});
