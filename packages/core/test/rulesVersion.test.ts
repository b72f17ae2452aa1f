import { describe, expect, it } from "vitest";
import { checkRulesChange, memoryOf } from "../src/domain/rules/checkRulesChange";
import { compileRules } from "../src/domain/rules/compileRules";
import { rollbackRules } from "../src/domain/rules/rollbackRules";
import { rulesDigest } from "../src/domain/rules/rulesDigest";
import type { RulesDocument } from "../src/domain/rules/rulesDocument";
import { builtinVersion, verifiedVersion } from "../src/domain/rules/rulesVersion";
import { builtinWith } from "./rulesFixtures";

const documentOf = builtinWith;
const publishedAt = "2026-12-05T12:00:00.000Z";
const stored = (document: RulesDocument, version = 3) => ({
  pointer: { pk: "RULES", sk: "CURRENT", version, digest: rulesDigest(document), publishedAt },
  item: {
    pk: "RULES",
    sk: `V#${String(version).padStart(10, "0")}`,
    version,
    document,
    digest: rulesDigest(document),
    publishedAt,
    note: "podcasts",
    longestMemory: memoryOf(document),
  },
});

describe("verifiedVersion: a version is used only as it was published", () => {
  it("a well-formed pointer and item with the document's digest", () => {
    const document = documentOf();
    const { pointer, item } = stored(document);
    expect(verifiedVersion(pointer, item)).toEqual({
      ok: true,
      version: {
        version: 3,
        publishedAt,
        note: "podcasts",
        document,
        digest: rulesDigest(document),
        longestMemory: memoryOf(document),
      },
    });
  });

  it("a hand-edited CURRENT or V# item, or a version this code cannot read, is refused, saying why", () => {
    const document = documentOf();
    const { pointer, item } = stored(document);
    const edited = documentOf((d) => {
      (d.types["article.completed"] as { xp: number }).xp = 500;
    });
    expect(verifiedVersion({ ...pointer, digest: "0".repeat(64) }, item)).toMatchObject({
      ok: false,
      why: expect.stringMatching(
        /^version 3's document does not have the digest published with it \(document [0-9a-f]{64}, item [0-9a-f]{64}, CURRENT 0{64}\)$/,
      ),
    });
    expect(verifiedVersion(pointer, { ...item, document: edited })).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^version 3's document does not have the digest published with it/),
    });
    expect(verifiedVersion({ ...pointer, version: 4 }, item)).toEqual({
      ok: false,
      why: "CURRENT names version 4, its item says 3",
    });
    expect(verifiedVersion(pointer, undefined)).toEqual({
      ok: false,
      why: "CURRENT names version 3, which has no item",
    });
    expect(verifiedVersion({ version: "3" }, item)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^CURRENT is not a pointer: /),
    });
    expect(verifiedVersion(pointer, { ...item, longestMemory: undefined })).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^version 3's item is malformed: /),
    });
    expect(verifiedVersion(pointer, { ...item, document: { ...document, format: 2 } })).toEqual({
      ok: false,
      why: "version 3 fails its checks: format: this version of rewards reads format 1, not 2",
    });
  });

  it("version 0 is the built-in rules", () => {
    expect(builtinVersion()).toMatchObject({ version: 0, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(builtinVersion()).not.toHaveProperty("publishedAt");
  });
});

describe("rollbackRules", () => {
  const now = Date.parse("2026-12-10T00:00:00Z");
  it("version N's document, with what was added since kept, retired, and what cannot be undone kept as it is now", () => {
    const target = documentOf();
    const current = documentOf((d) => {
      d.types["podcast.listened"] = { data: { show: { type: "string" } }, key: ["show"], xp: 5, memory: 30 };
      (d.types["article.completed"] as { xp: number; memory: number }).xp = 40;
      d.achievements.push({
        id: "podcaster",
        title: "Podcaster",
        when: { count: "podcast.listened", reaches: 3 },
      });
      d.campaigns = [
        {
          id: "weekend",
          title: "Weekend",
          types: ["article.completed"],
          from: "2026-12-06T00:00:00Z",
          to: "2026-12-08T00:00:00Z",
          multiplier: 2,
        },
      ];
    });
    const context = { current, longestMemory: { ...memoryOf(current), "article.completed": 90 }, now };
    const back = rollbackRules(target, context);
    expect(checkRulesChange(back, context).problems).toEqual([]);
    expect(back.types["podcast.listened"]).toEqual({ ...current.types["podcast.listened"], retired: true });
    expect(back.types["article.completed"]?.xp).toBe(20);
    expect(back.achievements.at(-1)).toEqual({ ...current.achievements.at(-1), retired: true });
    // Begun, and a replay could still meet it: kept as it is.
    expect(back.campaigns).toEqual(current.campaigns);
  });

  it("a key that changed since stays as it is now", () => {
    const current = documentOf((d) => {
      d.types["quiz.passed"] = { data: { quiz: { type: "string" } }, key: ["quiz"], xp: 5, memory: 30 };
    });
    const target = documentOf((d) => {
      d.types["quiz.passed"] = { data: { quiz: { type: "integer" } }, key: ["quiz"], xp: 9, memory: 30 };
    });
    const back = rollbackRules(target, { current, longestMemory: memoryOf(current), now });
    expect(back.types["quiz.passed"]).toEqual(current.types["quiz.passed"]);
  });
});

describe("found in review", () => {
  it("a rollback to a version with two campaigns dropped since keeps the ones in force and drops neither twice", () => {
    const now = Date.parse("2026-12-10T00:00:00Z");
    const old = (id: string) => ({
      id,
      title: id,
      types: ["article.completed"],
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-08T00:00:00Z",
      multiplier: 2,
    });
    const target = documentOf((d) => {
      d.campaigns = [old("jan-a"), old("jan-b")];
    });
    const current = documentOf((d) => {
      (d.types["article.completed"] as { xp: number }).xp = 30;
      d.campaigns = [
        {
          id: "dec",
          title: "Dec",
          types: ["article.completed"],
          from: "2026-12-01T00:00:00Z",
          to: "2026-12-20T00:00:00Z",
          bonus: 5,
        },
      ];
    });
    const context = { current, longestMemory: memoryOf(current), now };
    const back = rollbackRules(target, context);
    expect(checkRulesChange(back, context).problems).toEqual([]);
    expect(back.campaigns.map(({ id }) => id)).toEqual(["dec"]);
  });

  it("a V# item whose longestMemory was edited below its document's memory is refused; a guard never lives less than its version's memory", () => {
    const document = documentOf();
    const { pointer, item } = stored(document);
    expect(
      verifiedVersion(pointer, { ...item, longestMemory: { ...memoryOf(document), "article.completed": 2 } }),
    ).toEqual({
      ok: false,
      why: "version 3's longestMemory for article.completed (2) is shorter than its memory (90)",
    });
    expect(
      compileRules(document, { "article.completed": 2 }).types.get("article.completed")?.guardTtlSeconds,
    ).toBe(90 * 86_400);
  });
});
