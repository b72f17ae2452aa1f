import type { AttributeValue, DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import {
  BUILTIN_RULES,
  builtinVersion,
  checkRules,
  memoryOf,
  type RulesDocument,
  rulesDigest,
  rulesPointerKey,
  rulesVersionKey,
} from "@rewards/core";
import { describe, expect, it } from "vitest";
import { rulesViewOf } from "../src/readerRules";
import { createRulesCache, RulesUnavailableError } from "../src/rulesCache";

/**
 * The rules as a reader knows them (docs/reading.md#the-rules), over a stand-in table that
 * answers GetItem from a map and counts the calls. The same over the local stack:
 * tests/rulesReading.test.ts.
 */
const T0 = Date.parse("2026-12-05T12:00:00.000Z");
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The built-in rules with `article.completed` paying `xp`, checked. */
function documentPaying(
  xp: number,
  change: (rules: Record<string, unknown[]>) => void = () => {},
): RulesDocument {
  const copy = structuredClone(BUILTIN_RULES) as unknown as {
    types: Record<string, { xp: number }>;
  } & Record<string, unknown[]>;
  (copy.types["article.completed"] as { xp: number }).xp = xp;
  change(copy);
  const checked = checkRules(copy);
  if (!checked.ok) throw new Error("invalid rules");
  return checked.document;
}

function table() {
  const items = new Map<string, Record<string, unknown>>();
  const gets: string[] = [];
  const keyOf = (key: { pk: unknown; sk: unknown }) => `${String(key.pk)}|${String(key.sk)}`;
  const client = {
    async send(command: GetItemCommand) {
      const key = unmarshall(command.input.Key as Record<string, AttributeValue>) as {
        pk: string;
        sk: string;
      };
      gets.push(key.sk);
      const item = items.get(keyOf(key));
      return item === undefined ? {} : { Item: marshall(item, { removeUndefinedValues: true }) };
    },
  } as unknown as DynamoDBClient;
  /** Publishes version `n` (its V# item and CURRENT), as `rewards rules publish` writes them. */
  const publish = (n: number, document: RulesDocument, at: number) => {
    const digest = rulesDigest(document);
    const publishedAt = iso(at);
    items.set(keyOf(rulesVersionKey(n)), {
      ...rulesVersionKey(n),
      version: n,
      document,
      digest,
      publishedAt,
      longestMemory: memoryOf(document),
    });
    setPointer({ version: n, digest, publishedAt });
  };
  const setPointer = (pointer: Record<string, unknown>) =>
    items.set(keyOf(rulesPointerKey()), { ...rulesPointerKey(), ...pointer });
  const pointer = () => items.get(keyOf(rulesPointerKey()));
  return { client, gets, publish, setPointer, pointer };
}

const cacheOver = (t: ReturnType<typeof table>) =>
  createRulesCache({
    client: () => t.client,
    tableName: "rewards",
    refreshSeconds: 30,
    answerOf: (call) => call,
  });
const xpOf = (version: { document: RulesDocument }) => version.document.types["article.completed"]?.xp;

describe("the reader's rules cache", () => {
  it("nothing published: version 0; CURRENT read again only once the refresh period has passed", async () => {
    const t = table();
    const cache = cacheOver(t);
    expect((await cache.current(T0)).version).toBe(0);
    expect(t.gets).toEqual(["CURRENT"]);
    t.publish(1, documentPaying(25), T0);
    expect((await cache.current(T0 + 10_000)).version).toBe(0);
    expect((await cache.current(T0 + 30_000)).version).toBe(0);
    expect(t.gets).toEqual(["CURRENT"]);
    expect(cache.due(T0 + 30_000)).toBe(false);
    expect(cache.due(T0 + 30_001)).toBe(true);
    const next = await cache.current(T0 + 31_000);
    expect([next.version, xpOf(next)]).toEqual([1, 25]);
    expect(t.gets).toEqual(["CURRENT", "CURRENT", "V#0000000001"]);
  });

  it("a version already read is not fetched again: one GetItem of CURRENT per refresh", async () => {
    const t = table();
    t.publish(1, documentPaying(25), T0);
    const cache = cacheOver(t);
    await cache.current(T0);
    await cache.current(T0 + 31_000);
    await cache.current(T0 + 62_000);
    expect(t.gets).toEqual(["CURRENT", "V#0000000001", "CURRENT", "CURRENT"]);
  });

  it("a CURRENT that fails verification is never used: a warm reader keeps its version, a cold one has none", async () => {
    const t = table();
    t.publish(1, documentPaying(25), T0);
    const warm = cacheOver(t);
    expect((await warm.current(T0)).version).toBe(1);
    t.publish(2, documentPaying(30), T0 + HOUR);
    t.setPointer({ ...t.pointer(), digest: "0".repeat(64) });
    const kept = await warm.current(T0 + HOUR + 31_000);
    expect([kept.version, xpOf(kept)]).toEqual([1, 25]);
    const cold = cacheOver(t);
    await expect(cold.current(T0 + HOUR)).rejects.toThrow(RulesUnavailableError);
    await expect(cold.current(T0 + HOUR)).rejects.toThrow(
      /^the rules in force cannot be read: version 2's document does not have the digest published with it/,
    );
  });

  it("a CURRENT set back by hand to an older version: the reader keeps the newer one it knows", async () => {
    const t = table();
    t.publish(1, documentPaying(25), T0);
    const first = t.pointer();
    t.publish(2, documentPaying(30), T0 + HOUR);
    const cache = cacheOver(t);
    expect((await cache.current(T0 + HOUR)).version).toBe(2);
    t.setPointer({ ...first });
    const kept = await cache.current(T0 + 2 * HOUR);
    expect([kept.version, xpOf(kept)]).toEqual([2, 30]);
    // A reader that never knew version 2 takes version 1: it is verified and in force for it.
    expect((await cacheOver(t).current(T0 + 2 * HOUR)).version).toBe(1);
  });
});

describe("rulesViewOf: what a site is shown", () => {
  const campaign = (id: string, from: number, to: number) => ({
    id,
    title: id,
    types: ["article.completed"],
    from: iso(from),
    to: iso(to),
    bonus: 5,
  });
  const document = documentPaying(20, (rules) => {
    rules.campaigns?.push(
      campaign("over", T0 - 3 * HOUR, T0 - HOUR),
      campaign("ends-now", T0 - HOUR, T0),
      campaign("running", T0 - HOUR, T0 + HOUR),
      campaign("coming", T0 + HOUR, T0 + 2 * HOUR),
    );
  });

  it("running and coming campaigns; one over (its `to` reached) is not shown", () => {
    const view = rulesViewOf({ version: 3, publishedAt: iso(T0 - 4 * HOUR), document }, new Date(T0));
    expect(view.campaigns.map((shown) => shown.id)).toEqual(["running", "coming"]);
    expect(view.campaigns[0]).toEqual({
      id: "running",
      title: "running",
      types: ["article.completed"],
      from: iso(T0 - HOUR),
      to: iso(T0 + HOUR),
      bonus: 5,
    });
    expect(view).toMatchObject({ version: 3, publishedAt: iso(T0 - 4 * HOUR) });
  });

  it("version 0: no publishedAt, every built-in type and achievement, no campaign", () => {
    const view = rulesViewOf(builtinVersion(), new Date(T0));
    expect(view).not.toHaveProperty("publishedAt");
    expect(view.version).toBe(0);
    expect(view.types.map((type) => type.type)).toEqual([
      "article.completed",
      "article.shared",
      "streak.day",
      "signup.completed",
    ]);
    expect(view.campaigns).toEqual([]);
  });
});
