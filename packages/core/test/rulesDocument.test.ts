import { describe, expect, it } from "vitest";
import { FIXED_ACHIEVEMENTS } from "../src/domain/progress/achievements";
import { BUILTIN_RULES } from "../src/domain/rules/builtinRules";
import { checkRules } from "../src/domain/rules/checkRules";
import { compileRules } from "../src/domain/rules/compileRules";
import { parseRulesText } from "../src/domain/rules/parseRulesText";
import { rules } from "../src/domain/rules/rules";
import { canonicalJson, rulesDigest } from "../src/domain/rules/rulesDigest";
import type { RulesDocument, RulesDocumentInput } from "../src/domain/rules/rulesDocument";
import { describeRulesProblems, pathOf } from "../src/domain/rules/rulesProblem";

const builtin = (): RulesDocument => {
  const checked = checkRules(BUILTIN_RULES);
  if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
  return checked.document;
};
/** The built-in document with `change` applied to a deep copy. */
const edited = (change: (document: RulesDocumentInput & Record<string, unknown>) => void) => {
  const copy = structuredClone(BUILTIN_RULES) as unknown as RulesDocumentInput & Record<string, unknown>;
  change(copy);
  return checkRules(copy);
};
const problemsOf = (checked: ReturnType<typeof checkRules>) => (checked.ok ? [] : checked.problems);
type Types = Record<string, Record<string, unknown>>;

describe("the built-in rules (version 0)", () => {
  it("pass their own checks", () => {
    expect(checkRules(BUILTIN_RULES).ok).toBe(true);
  });

  it("compile to exactly what the fixed rules pay: XP, keys, memory, cap, day, and which data each accepts", () => {
    const compiled = compileRules(builtin());
    expect([...compiled.types.keys()]).toEqual(Object.keys(rules));
    const samples: Record<string, Array<Record<string, unknown>>> = {
      "article.completed": [
        { userId: "u", articleSlug: "a" },
        { userId: "u", articleSlug: "" },
        { userId: "u", articleSlug: "x".repeat(513) },
        { userId: "u" },
        { userId: "", articleSlug: "a" },
        { userId: "u", articleSlug: "a", xp: 1000 },
      ],
      "article.shared": [
        { userId: "u", articleSlug: "a", channel: "x" },
        { userId: "u", articleSlug: "a", channel: "x".repeat(65) },
        { userId: "u", articleSlug: "a" },
      ],
      "streak.day": [
        { userId: "u", day: "2026-12-04" },
        { userId: "u", day: "2026-02-30" },
        { userId: "u", day: "20261204" },
      ],
      "signup.completed": [{ userId: "u" }, { userId: "u", amount: 5 }, {}],
    };
    for (const [type, fixed] of Object.entries(rules)) {
      const rule = compiled.types.get(type);
      expect(rule, type).toBeDefined();
      expect({ type, xp: rule?.pays({}).xp, ttl: rule?.guardTtlSeconds, capped: rule?.capped }).toEqual({
        type,
        xp: fixed.xp,
        ttl: fixed.guardTtlSeconds,
        capped: fixed.dailyCapped,
      });
      for (const data of samples[type] ?? []) {
        const want = fixed.schema.safeParse(data);
        const got = rule?.schema.safeParse(data);
        expect({ type, data, ok: got?.success }).toEqual({ type, data, ok: want.success });
        if (want.success && got?.success) {
          expect(got.data).toEqual(want.data);
          expect(rule?.keyParts(got.data)).toEqual((fixed.keyParts as (d: unknown) => string[])(want.data));
          expect(rule?.day(got.data)).toBe(
            "day" in fixed ? fixed.day(want.data as unknown as { day: string }) : undefined,
          );
        }
      }
    }
    expect(compiled.types.get("streak.day")?.keepsStreak).toBe(true);
  });

  it("hold the fixed achievements, in order, with their titles and conditions", () => {
    expect(builtin().achievements).toEqual(
      FIXED_ACHIEVEMENTS.map((achievement) => ({ ...achievement, retired: false })),
    );
  });
});

describe("checkRules: a document alone", () => {
  it("names every problem by its path and why", () => {
    const checked = edited((document) => {
      const types = document.types as Types;
      types["podcast.listened"] = {
        data: { show: { type: "string" }, minutes: { type: "integer" }, userId: { type: "string" } },
        key: ["show", "episode", "show"],
        xp: { per: "minutes", each: 1, max: 60 },
        memory: 400,
      };
      types["quiz.passed"] = {
        data: { quiz: { type: "string", minLength: 5, maxLength: 2, enum: ["a"] }, on: { type: "day" } },
        key: ["quiz", "on"],
        xp: { per: "quiz", each: 1, max: 1 },
        memory: 30,
        keepsStreak: true,
      };
      types["reward.paid"] = { xp: 1, memory: 2, capped: false };
      document.campaigns = [
        {
          id: "w",
          title: "W",
          types: ["nope.type"],
          from: "2026-12-05T00:00:00Z",
          to: "2026-12-04T00:00:00Z",
          bonus: 1,
        },
        {
          id: "w",
          title: "W",
          types: ["article.completed"],
          from: "2026-12-05T00:00:00Z",
          to: "2026-12-06T00:00:00Z",
          multiplier: 2,
        },
      ];
      (document.achievements as unknown[]).push(
        { id: "level-9", title: "L", when: { xp: 5 } },
        { id: "first-article", title: "again", when: { count: "none.type", reaches: 1 } },
      );
    });
    expect(problemsOf(checked)).toEqual([
      { path: 'types["podcast.listened"].data.userId', why: "userId is the envelope's or the award's own" },
      { path: 'types["podcast.listened"].key[1]', why: "no data field episode" },
      { path: 'types["podcast.listened"].key[2]', why: "show is already in the key" },
      {
        path: 'types["podcast.listened"].xp.per',
        why: "minutes needs minimum ≥ 0 (a negative number of units pays nothing)",
      },
      {
        path: 'types["podcast.listened"].memory',
        why: "a capped type remembers at most 90 days (a day's total lives that long after its day)",
      },
      { path: 'types["quiz.passed"].data.quiz.maxLength', why: "must be at least minLength" },
      { path: 'types["quiz.passed"].data.quiz.enum', why: '"a" is outside minLength/maxLength' },
      { path: 'types["quiz.passed"].xp.per', why: "quiz must be an integer field" },
      {
        path: 'types["quiz.passed"].xp.per',
        why: "quiz is in the key: each value would be another intent, paid again",
      },
      {
        path: 'types["quiz.passed"].day',
        why: "the key holds the day field on: name the day the intent is about here",
      },
      { path: 'types["quiz.passed"].keepsStreak', why: "needs day: the day it keeps" },
      { path: 'types["reward.paid"]', why: "reward.* are the rewards bus's own events" },
      { path: "campaigns[0].to", why: "must be after from" },
      { path: "campaigns[0].types[0]", why: "no type nope.type" },
      { path: "campaigns[1].id", why: "another campaign is w" },
      { path: "achievements[6].id", why: "level-* are the levels' own (implicit: never written)" },
      { path: "achievements[7].id", why: "another achievement is first-article" },
      { path: "achievements[7].when.count", why: "no type none.type" },
    ]);
  });

  it("the schema's own problems by path: an unknown field, a bad type name, a campaign with both or neither effect", () => {
    const checked = edited((document) => {
      document.extra = 1;
      (document.types as Types)["Bad Name"] = { xp: 1, memory: 2 };
      (document.types as Types)["a.b"] = { xp: -1, memory: 1, data: { f: { type: "float" } } };
      document.campaigns = [
        {
          id: "x",
          title: "X",
          types: ["a.b"],
          from: "2026-12-05",
          to: "2026-12-06T00:00:00Z",
          multiplier: 2,
          bonus: 1,
        },
      ];
    });
    expect(describeRulesProblems(problemsOf(checked))).toMatchInlineSnapshot(`
      "types["Bad Name"]: Invalid key in record
      types["a.b"].data.f.type: Invalid discriminator value. Expected 'string' | 'day' | 'integer'
      types["a.b"].xp: Too small: expected number to be >=0
      types["a.b"].memory: Too small: expected number to be >=2
      campaigns[0].from: Invalid ISO datetime
      campaigns[0]: needs exactly one of multiplier and bonus
      Unrecognized key: "extra""
    `);
  });

  it("a format this code does not read", () => {
    expect(
      problemsOf(
        edited((document) => {
          document.format = 2;
        }),
      ),
    ).toEqual([{ path: "format", why: "this version of rewards reads format 1, not 2" }]);
  });
});

describe("parseRulesText: YAML 1.2, core schema", () => {
  it("reads YAML and JSON alike; a date stays a string; a duplicate key, a tag or an unclosed list is named by line and column", () => {
    expect(parseRulesText("format: 1\nwhen: 2026-12-04\n")).toEqual({
      ok: true,
      value: { format: 1, when: "2026-12-04" },
    });
    expect(parseRulesText('{"format": 1}')).toEqual({ ok: true, value: { format: 1 } });
    expect(parseRulesText("format: 1\ntypes: {}\nformat: 2\n")).toEqual({
      ok: false,
      problems: [{ path: "", why: "line 3, column 1: Map keys must be unique" }],
    });
    expect(parseRulesText("format: !!str 1\n")).toEqual({
      ok: false,
      problems: [
        {
          path: "",
          why: "line 1, column 15: this value has a tag (tag:yaml.org,2002:str): the core schema's plain values only",
        },
      ],
    });
    const unclosed = parseRulesText("types:\n  a.b: [1, 2\n");
    expect(unclosed).toEqual({
      ok: false,
      problems: [
        {
          path: "",
          why: "line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
        },
      ],
    });
  });

  it("aliases past the limit, a document over 300 KB once expanded, and __proto__ are refused, each said", () => {
    const many = `a: &a [1]\nb: [${Array.from({ length: 101 }, () => "*a").join(", ")}]\n`;
    expect(parseRulesText(many)).toMatchObject({
      ok: false,
      problems: [{ path: "", why: expect.stringMatching(/alias/i) }],
    });
    const big = `x: &x "${"y".repeat(4000)}"\nlist: [${Array.from({ length: 90 }, () => "*x").join(", ")}]\n`;
    expect(parseRulesText(big)).toEqual({
      ok: false,
      problems: [
        {
          path: "",
          why: expect.stringMatching(
            /^\d+ bytes once its aliases are expanded: a document is at most 307200 bytes$/,
          ),
        },
      ],
    });
    expect(parseRulesText("types:\n  __proto__: {xp: 1}\n")).toEqual({
      ok: false,
      problems: [{ path: "", why: "line 2, column 3: __proto__ is no name a document may use" }],
    });
  });

  it("a merge key is just a key (the checks then refuse it); at most 300 KB", () => {
    const merged = parseRulesText("base: &b {xp: 1}\nother:\n  <<: *b\n");
    expect(merged).toEqual({ ok: true, value: { base: { xp: 1 }, other: { "<<": { xp: 1 } } } });
    expect(parseRulesText(`# ${"x".repeat(300 * 1024)}`)).toEqual({
      ok: false,
      problems: [{ path: "", why: "307202 bytes: a document is at most 307200 bytes" }],
    });
  });
});

describe("rulesDigest", () => {
  it("one digest for one document however it is written; another for another", () => {
    const yaml = parseRulesText("format: 1\ntypes:\n  a.b: {memory: 2, xp: 1, capped: false}\n");
    const json = parseRulesText('{"types": {"a.b": {"capped": false, "xp": 1, "memory": 2}}, "format": 1}');
    const digest = (text: typeof yaml) => {
      const checked = checkRules(text.ok ? text.value : undefined);
      return checked.ok ? rulesDigest(checked.document) : "invalid";
    };
    expect(digest(yaml)).toMatch(/^[0-9a-f]{64}$/);
    expect(digest(json)).toBe(digest(yaml));
    expect(
      digest(parseRulesText('{"types": {"a.b": {"capped": false, "xp": 2, "memory": 2}}, "format": 1}')),
    ).not.toBe(digest(yaml));
    expect(canonicalJson({ b: [1, { d: 1, c: undefined, a: null }], a: "x" })).toBe(
      '{"a":"x","b":[1,{"a":null,"d":1}]}',
    );
  });

  it("paths read as a reader writes them", () => {
    expect(pathOf(["types", "a.b", "key", 0])).toBe('types["a.b"].key[0]');
    expect(pathOf([])).toBe("");
  });
});

describe("compileRules", () => {
  it("a per-unit type pays min(max, each × units) and says the units; an integer key part is its shortest decimal; the guard lives the longest memory ever", () => {
    const checked = edited((document) => {
      (document.types as Types)["minutes.read"] = {
        data: {
          article: { type: "string" },
          minutes: { type: "integer", minimum: 0 },
          part: { type: "integer" },
        },
        key: ["article", "part"],
        xp: { per: "minutes", each: 2, max: 60 },
        memory: 30,
      };
      (document.types as Types)["quiz.passed"] = {
        data: { quiz: { type: "string", enum: ["a", "b"] } },
        key: ["quiz"],
        xp: 0,
        memory: "forever",
        capped: false,
      };
    });
    if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
    const compiled = compileRules(checked.document, { "minutes.read": 60 });
    const minutes = compiled.types.get("minutes.read");
    expect(minutes?.pays({ minutes: 12 })).toEqual({ xp: 24, units: 12 });
    expect(minutes?.pays({ minutes: 45 })).toEqual({ xp: 60, units: 45 });
    expect(minutes?.pays({ minutes: 0 })).toEqual({ xp: 0, units: 0 });
    expect(minutes?.keyParts({ userId: "u", article: "a", part: 7, minutes: 3 })).toEqual([
      "u",
      "a",
      "7",
      "minutes.read",
    ]);
    expect(minutes?.guardTtlSeconds).toBe(60 * 86_400);
    expect(minutes?.schema.safeParse({ userId: "u", article: "a", part: 1.5, minutes: 1 }).success).toBe(
      false,
    );
    expect(minutes?.schema.safeParse({ userId: "u", article: "a", part: -1, minutes: -1 }).success).toBe(
      false,
    );
    const quiz = compiled.types.get("quiz.passed");
    expect(quiz?.schema.safeParse({ userId: "u", quiz: "c" }).success).toBe(false);
    expect(quiz?.schema.safeParse({ userId: "u", quiz: "b" }).success).toBe(true);
    expect(quiz?.guardTtlSeconds).toBeUndefined();
    expect(quiz?.pays({})).toEqual({ xp: 0 });
  });
});
