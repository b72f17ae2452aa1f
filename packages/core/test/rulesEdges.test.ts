import { describe, expect, it } from "vitest";
import { campaignPay } from "../src/domain/rules/campaignPay";
import { checkRules } from "../src/domain/rules/checkRules";
import { checkRulesChange, memoryOf } from "../src/domain/rules/checkRulesChange";
import { compileRules } from "../src/domain/rules/compileRules";
import { parseRulesText } from "../src/domain/rules/parseRulesText";
import { rollbackRules } from "../src/domain/rules/rollbackRules";
import { rulesDigest } from "../src/domain/rules/rulesDigest";
import { pathOf } from "../src/domain/rules/rulesProblem";
import { verifiedVersion } from "../src/domain/rules/rulesVersion";
import { builtinWith, type EditableRules } from "./rulesFixtures";

/**
 * The rules' edges, one each: every refusal alone (so a check that stops firing is seen), the
 * boundaries of campaigns and memories, and what a rollback keeps.
 */
const problemsOf = (change: (document: EditableRules) => void) => {
  const copy = structuredClone(builtinWith()) as unknown as EditableRules;
  change(copy);
  const checked = checkRules(copy);
  return checked.ok ? [] : checked.problems;
};
/** A custom type keyed on one string field, uncapped, 30 days: `extra` changes it. */
const pq = (extra: Record<string, unknown> = {}) => ({
  data: { s: { type: "string" } },
  key: ["s"],
  xp: 1,
  memory: 30,
  capped: false,
  ...extra,
});
const withType = (name: string, rule: Record<string, unknown>) => (document: EditableRules) => {
  document.types[name] = rule;
};

describe("checkRules: each refusal alone", () => {
  it("a per-unit field that does not exist; a day field not in the key or not a day", () => {
    expect(
      problemsOf(withType("a.b", { xp: { per: "minutes", each: 1, max: 5 }, memory: 2, capped: false })),
    ).toEqual([{ path: 'types["a.b"].xp.per', why: "no data field minutes" }]);
    expect(
      problemsOf(
        withType("a.b", { data: { on: { type: "day" } }, day: "on", xp: 1, memory: 2, capped: false }),
      ),
    ).toEqual([{ path: 'types["a.b"].day', why: "on must be a key field of type day" }]);
    expect(
      problemsOf(
        withType("a.b", {
          data: { on: { type: "string" } },
          key: ["on"],
          day: "on",
          xp: 1,
          memory: 2,
          capped: false,
        }),
      ),
    ).toEqual([{ path: 'types["a.b"].day', why: "on must be a key field of type day" }]);
  });

  it("string and integer bounds; enum values within the lengths", () => {
    expect(
      problemsOf(
        withType("a.b", {
          data: {
            s: { type: "string", maxLength: 2, enum: ["abc", "ab"] },
            t: { type: "string", minLength: 2, enum: ["a"] },
            n: { type: "integer", minimum: 5, maximum: 4 },
            m: { type: "integer", minimum: 4, maximum: 4 },
            u: { type: "string", minLength: 2, maxLength: 2 },
          },
          xp: 1,
          memory: 2,
          capped: false,
        }),
      ),
    ).toEqual([
      { path: 'types["a.b"].data.s.enum', why: '"abc" is outside minLength/maxLength' },
      { path: 'types["a.b"].data.t.enum', why: '"a" is outside minLength/maxLength' },
      { path: 'types["a.b"].data.n.maximum', why: "must be at least minimum" },
    ]);
  });

  it("a capped type remembered forever or past 90 days; 90 is allowed; uncapped forever is allowed", () => {
    const capped = (memory: number | "forever") => withType("a.b", { xp: 1, memory });
    const why = "a capped type remembers at most 90 days (a day's total lives that long after its day)";
    expect(problemsOf(capped("forever"))).toEqual([{ path: 'types["a.b"].memory', why }]);
    expect(problemsOf(capped(91))).toEqual([{ path: 'types["a.b"].memory', why }]);
    expect(problemsOf(capped(90))).toEqual([]);
    expect(problemsOf(withType("a.b", { xp: 1, memory: "forever", capped: false }))).toEqual([]);
  });

  it("a campaign must end after it begins (a zero-length one too); an id with level- inside is no level", () => {
    const campaign = (from: string, to: string) => (document: EditableRules) => {
      document.campaigns = [{ id: "c", title: "C", types: ["article.completed"], from, to, bonus: 1 }];
    };
    expect(problemsOf(campaign("2026-12-05T00:00:00Z", "2026-12-05T00:00:00Z"))).toEqual([
      { path: "campaigns[0].to", why: "must be after from" },
    ]);
    expect(problemsOf(campaign("2026-12-05T00:00:00Z", "2026-12-05T00:00:00.001Z"))).toEqual([]);
    expect(
      problemsOf((document) => {
        document.achievements.push({ id: "my-level-1", title: "Mine", when: { xp: 5 } });
      }),
    ).toEqual([]);
  });

  it("the schema: a campaign with neither effect, no type at all", () => {
    expect(
      problemsOf((document) => {
        document.campaigns = [
          {
            id: "c",
            title: "C",
            types: ["article.completed"],
            from: "2026-12-05T00:00:00Z",
            to: "2026-12-06T00:00:00Z",
          },
        ];
      }),
    ).toEqual([{ path: "campaigns[0]", why: "needs exactly one of multiplier and bonus" }]);
    expect(checkRules({ format: 1, types: {} })).toEqual({
      ok: false,
      problems: [{ path: "types", why: "needs at least one type" }],
    });
  });
});

describe("checkRulesChange: the edges", () => {
  const now = Date.parse("2026-12-05T12:00:00Z");
  const base = builtinWith((d) => {
    d.types["p.q"] = pq({ memory: "forever" });
  });
  const next = (change: (document: EditableRules) => void) =>
    builtinWith((d) => {
      d.types["p.q"] = pq({ memory: "forever" });
      change(d);
    });
  const against =
    (current = base, longest = memoryOf(current)) =>
    (document: ReturnType<typeof builtinWith>) =>
      checkRulesChange(document, { current, longestMemory: longest, now });

  it("a memory past a longest of 30 days is named in days; past forever cannot be", () => {
    const memory30 = builtinWith((d) => {
      d.types["p.q"] = pq();
    });
    expect(
      against(memory30)(
        next((d) => {
          (d.types["p.q"] as { memory: number | "forever" }).memory = "forever";
        }),
      ).problems,
    ).toEqual([
      {
        path: 'types["p.q"].memory',
        why: "at most 30 days, the longest it has ever had: a replay of a reading whose guard is already gone would pay again",
      },
    ]);
    expect(against()(next(() => {})).problems).toEqual([]);
  });

  it("the rename warning: only a type retired in this version, only the same key of the same kinds", () => {
    const retiring = (key: string[], kind: string, alreadyRetired = false) => {
      const current = builtinWith((d) => {
        d.types["p.q"] = pq({ retired: alreadyRetired });
      });
      const document = builtinWith((d) => {
        d.types["p.q"] = pq({ retired: true });
        d.types["p.r"] = {
          data: { s: { type: kind }, t: { type: "string" } },
          key,
          xp: 1,
          memory: 30,
          capped: false,
        };
      });
      return checkRulesChange(document, { current, longestMemory: memoryOf(current), now }).warnings.length;
    };
    expect(retiring(["s"], "string")).toBe(1);
    expect(retiring(["s"], "string", true)).toBe(0);
    expect(retiring(["s", "t"], "string")).toBe(0);
    expect(retiring(["t"], "string")).toBe(0);
    expect(retiring(["s"], "integer")).toBe(0);
  });

  it("campaigns at their instants: from at now is begun and frozen; a new one may begin at now; to may come to now", () => {
    const c = (extra: Record<string, unknown> = {}) => ({
      id: "c",
      title: "C",
      types: ["article.completed"],
      from: "2026-12-05T12:00:00.000Z",
      to: "2026-12-07T00:00:00Z",
      multiplier: 2,
      ...extra,
    });
    const withC = (extra?: Record<string, unknown>) =>
      builtinWith((d) => {
        d.campaigns = [c(extra)];
      });
    const judge = (current: ReturnType<typeof builtinWith>, document: ReturnType<typeof builtinWith>) =>
      checkRulesChange(document, { current, longestMemory: memoryOf(current), now }).problems;
    expect(judge(builtinWith(), withC())).toEqual([]);
    expect(judge(withC(), withC({ multiplier: 3 }))).toEqual([
      { path: "campaigns[0].multiplier", why: "frozen once the campaign has begun (was 2)" },
    ]);
    const earlier = { from: "2026-12-05T11:00:00.000Z" };
    expect(judge(withC(earlier), withC({ ...earlier, to: "2026-12-05T12:00:00.000Z" }))).toEqual([]);
    expect(judge(withC(earlier), withC({ ...earlier, to: "2026-12-05T11:59:59.999Z" }))).toEqual([
      { path: "campaigns[0].to", why: "not before now: awards already paid under it keep what it gave" },
    ]);
    expect(judge(withC(), withC({ bonus: 5, multiplier: undefined }))).toEqual([
      { path: "campaigns[0].multiplier", why: "frozen once the campaign has begun (was 2)" },
      { path: "campaigns[0].bonus", why: "frozen once the campaign has begun (was none)" },
    ]);
  });

  it("dropping a begun campaign: at exactly its to plus the longest memory of its types, not a millisecond before; never one of a type remembered forever", () => {
    const dropped = (types: string[], to: string) => {
      const current = builtinWith((d) => {
        d.types["p.q"] = pq({ memory: "forever" });
        d.campaigns = [{ id: "c", title: "C", types, from: "2026-01-01T00:00:00Z", to, bonus: 1 }];
      });
      const document = builtinWith((d) => {
        d.types["p.q"] = pq({ memory: "forever" });
      });
      return checkRulesChange(document, { current, longestMemory: memoryOf(current), now }).problems.length;
    };
    // article.completed 90 days, streak.day 90, signup forever.
    expect(dropped(["article.completed"], "2026-09-06T12:00:00Z")).toBe(0);
    expect(dropped(["article.completed"], "2026-09-06T12:00:00.001Z")).toBe(1);
    expect(dropped(["article.completed", "p.q"], "2026-01-02T00:00:00Z")).toBe(1);
  });
});

describe("rollbackRules: what it keeps", () => {
  const now = Date.parse("2026-12-10T00:00:00Z");
  it("the newer format; a begun campaign added since, kept; a coming one added since, dropped; an achievement's condition changed since, kept as now", () => {
    const target = builtinWith();
    const current = builtinWith((d) => {
      d.format = 1;
      d.campaigns = [
        {
          id: "begun",
          title: "B",
          types: ["article.completed"],
          from: "2026-12-09T00:00:00Z",
          to: "2026-12-20T00:00:00Z",
          bonus: 1,
        },
        {
          id: "coming",
          title: "C",
          types: ["article.completed"],
          from: "2026-12-15T00:00:00Z",
          to: "2026-12-20T00:00:00Z",
          bonus: 1,
        },
      ];
    });
    const back = rollbackRules(target, { current, longestMemory: memoryOf(current), now });
    expect(back.campaigns.map(({ id }) => id)).toEqual(["begun"]);
    expect(back.format).toBe(1);
    const renamed = builtinWith((d) => {
      (d.achievements[1] as { when: unknown }).when = { count: "article.completed", reaches: 12 };
      d.achievements[1] = { ...d.achievements[1], id: "articles-12" };
    });
    // Version N had articles-12 at 12; the version in force has articles-10 at 10 (another id).
    expect(() =>
      rollbackRules(renamed, { current: target, longestMemory: memoryOf(target), now }),
    ).not.toThrow();
    const back2 = rollbackRules(renamed, { current: target, longestMemory: memoryOf(target), now });
    expect(back2.achievements.find(({ id }) => id === "articles-10")).toMatchObject({ retired: true });
    expect(back2.achievements.find(({ id }) => id === "articles-12")).toMatchObject({ retired: false });
  });

  it("a type's key changed since: kept as it is now, its retired flag as version N had it", () => {
    const current = builtinWith((d) => {
      d.types["p.q"] = pq({ xp: 2 });
    });
    const target = builtinWith((d) => {
      d.types["p.q"] = pq({ key: [], retired: true });
    });
    const back = rollbackRules(target, { current, longestMemory: memoryOf(current), now });
    expect(back.types["p.q"]).toEqual({ ...current.types["p.q"], retired: true });
  });
});

describe("rollbackRules: memories and campaigns", () => {
  const now = Date.parse("2026-12-10T00:00:00Z");
  it("a memory N had past the longest since: the type as it is now; N's coming campaigns kept, its past ones not begun now dropped", () => {
    const campaign = (id: string, from: string, extra: Record<string, unknown> = {}) => ({
      id,
      title: id,
      types: ["article.completed"],
      from,
      to: "2026-12-31T00:00:00Z",
      bonus: 1,
      ...extra,
    });
    const target = builtinWith((d) => {
      d.types["p.q"] = pq({ memory: 90, xp: 7 });
      d.campaigns = [campaign("coming", "2026-12-20T00:00:00Z"), campaign("past", "2026-12-01T00:00:00Z")];
    });
    const current = builtinWith((d) => {
      d.types["p.q"] = pq({ memory: 10 });
      d.campaigns = [campaign("past", "2026-12-25T00:00:00Z", { bonus: 3 })];
    });
    const back = rollbackRules(target, { current, longestMemory: { ...memoryOf(current), "p.q": 60 }, now });
    expect(back.types["p.q"]).toMatchObject({ memory: 10, xp: 1, retired: false });
    expect(back.campaigns.map(({ id }) => id)).toEqual(["coming"]);
  });
});

describe("a stored version: the rest of what verification refuses", () => {
  const document = builtinWith();
  const digest = rulesDigest(document);
  const publishedAt = "2026-12-05T12:00:00.000Z";
  const pointer = { version: 2, digest, publishedAt };
  const item = { version: 2, document, digest, publishedAt, longestMemory: memoryOf(document) };
  it("a pointer or item whose digest is no SHA-256, version 0 or below, a memory shorter than 2 days; a type with no longest memory", () => {
    expect(verifiedVersion({ ...pointer, digest: `x${digest}` }, item).ok).toBe(false);
    expect(verifiedVersion({ ...pointer, digest: digest.slice(1) }, item).ok).toBe(false);
    expect(verifiedVersion({ ...pointer, version: 0 }, { ...item, version: 0 }).ok).toBe(false);
    expect(
      verifiedVersion(pointer, { ...item, longestMemory: { ...item.longestMemory, "streak.day": 1 } }).ok,
    ).toBe(false);
    const { "streak.day": _gone, ...without } = item.longestMemory;
    expect(verifiedVersion(pointer, { ...item, longestMemory: without })).toEqual({
      ok: false,
      why: "version 2's longestMemory for streak.day (none) is shorter than its memory (90)",
    });
    expect(verifiedVersion(pointer, item)).toMatchObject({ ok: true, version: { version: 2 } });
    expect(
      verifiedVersion(pointer, item).ok &&
        "note" in (verifiedVersion(pointer, item) as { version: object }).version,
    ).toBe(false);
  });
});

describe("compileRules and parseRulesText: the rest", () => {
  it("an integer field's bounds; an enum's message; a type remembered forever keeps its guard forever", () => {
    const document = builtinWith((d) => {
      d.types["n.m"] = {
        data: { n: { type: "integer", minimum: 2, maximum: 4 }, e: { type: "string", enum: ["x"] } },
        xp: 1,
        memory: 2,
        capped: false,
      };
    });
    const rule = compileRules(document).types.get("n.m");
    expect([1, 2, 4, 5].map((n) => rule?.schema.safeParse({ userId: "u", n, e: "x" }).success)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    const bad = rule?.schema.safeParse({ userId: "u", n: 2, e: "y" });
    expect(bad?.success ? "" : bad?.error.issues[0]?.message).toBe("must be one of x");
    const uncapped = builtinWith((d) => {
      d.types["f.g"] = { xp: 1, memory: "forever", capped: false };
    });
    expect(compileRules(uncapped).types.get("f.g")?.guardTtlSeconds).toBeUndefined();
  });

  it("a document of exactly 300 KB is read; one byte more is not", () => {
    const at = (bytes: number) => `# ${"x".repeat(bytes - 3)}\n`;
    expect(parseRulesText(at(300 * 1024)).ok).toBe(true);
    expect(parseRulesText(at(300 * 1024 + 1)).ok).toBe(false);
  });

  it("campaignPay without campaigns is the base; pathOf quotes what is no identifier", () => {
    expect(campaignPay([], "a.b", 0, 7)).toEqual({ xp: 7 });
    expect(pathOf(["a", "b c", "$d", 1, "e1"])).toBe('a["b c"].$d[1].e1');
    expect(pathOf(["1a"])).toBe('["1a"]');
  });
});
