import { describe, expect, it } from "vitest";
import { planAwardTransaction } from "../src/domain/award/awardPlan";
import { decodeEvent } from "../src/domain/events/decodeEvent";
import { untimelyReason } from "../src/domain/events/eventTime";
import { BUILTIN_RULES } from "../src/domain/rules/builtinRules";
import { campaignPay } from "../src/domain/rules/campaignPay";
import { checkRules } from "../src/domain/rules/checkRules";
import { builtinCompiled, compileRules } from "../src/domain/rules/compileRules";
import type { Campaign } from "../src/domain/rules/rulesDocument";
import { describeRulesProblems } from "../src/domain/rules/rulesProblem";

type Editable = { types: Record<string, Record<string, unknown>>; campaigns: Array<Record<string, unknown>> };
function version(
  n: number,
  change: (document: Editable) => void,
  longest?: Record<string, number | "forever">,
) {
  const copy = structuredClone(BUILTIN_RULES) as unknown as Editable;
  change(copy);
  const checked = checkRules(copy);
  if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
  return compileRules(checked.document, longest, n);
}
const event = (type: string, data: Record<string, unknown>, time = "2026-12-05T10:00:00Z") =>
  JSON.stringify({ specversion: "1.0", id: "e-1", source: "/t", type, time, data });

describe("decoding under a published version", () => {
  const v3 = version(
    3,
    (document) => {
      document.types["minutes.read"] = {
        data: { article: { type: "string" }, minutes: { type: "integer", minimum: 0 } },
        key: ["article"],
        xp: { per: "minutes", each: 2, max: 60 },
        memory: 30,
      };
      document.types["quiz.day"] = {
        data: { on: { type: "day" } },
        key: ["on"],
        day: "on",
        keepsStreak: true,
        xp: 0,
        memory: 10,
        capped: false,
      };
      (document.types["article.shared"] as { retired: boolean }).retired = true;
      (document.types["article.completed"] as { memory: number }).memory = 30;
    },
    { "article.completed": 90 },
  );

  it("a custom per-unit type: its key, its pay and units, the version and facts the guard records", () => {
    expect(decodeEvent(event("minutes.read", { userId: "u", article: "a", minutes: 45 }), v3)).toEqual({
      ok: true,
      award: {
        intentKey: "u#a#minutes.read",
        userId: "u",
        type: "minutes.read",
        amount: 60,
        data: { article: "a", minutes: 45 },
        eventId: "e-1",
        guardTtlSeconds: 30 * 86_400,
        time: "2026-12-05T10:00:00Z",
        rulesVersion: 3,
        capped: true,
        units: 45,
      },
    });
  });

  it("a type keeping its day for streaks, paying 0; a shrunk memory judged on the version's, the guard on the longest", () => {
    const quiz = decodeEvent(event("quiz.day", { userId: "u", on: "2026-12-05" }), v3);
    expect(quiz).toMatchObject({
      ok: true,
      award: { amount: 0, day: "2026-12-05", keepsDay: "2026-12-05", capped: false, rulesVersion: 3 },
    });
    const article = decodeEvent(
      event("article.completed", { userId: "u", articleSlug: "a" }, "2026-11-01T00:00:00Z"),
      v3,
    );
    expect(article).toMatchObject({
      ok: true,
      award: { guardTtlSeconds: 90 * 86_400, memorySeconds: 30 * 86_400 },
    });
    if (!article.ok) throw new Error("decoded");
    const now = Date.parse("2026-12-05T12:00:00Z");
    expect(untimelyReason(article.award, {}, now)).toMatchObject({
      code: "stale",
      reason: expect.stringContaining("article.completed is remembered 30 days"),
    });
    // Under version 0 the same event is still within 90 days.
    const v0 = decodeEvent(
      event("article.completed", { userId: "u", articleSlug: "a" }, "2026-11-01T00:00:00Z"),
    );
    if (!v0.ok) throw new Error("decoded");
    expect(untimelyReason(v0.award, {}, now)).toBeUndefined();
  });

  it("a retired or unknown type is unknown_type, naming the version; under version 0 the words are as ever", () => {
    expect(decodeEvent(event("article.shared", { userId: "u", articleSlug: "a", channel: "x" }), v3)).toEqual(
      {
        ok: false,
        park: {
          code: "unknown_type",
          reason: 'type: no reward rule for type "article.shared" (retired) in rules version 3',
        },
      },
    );
    expect(decodeEvent(event("podcast.listened", { userId: "u" }))).toEqual({
      ok: false,
      park: { code: "unknown_type", reason: 'type: no reward rule for type "podcast.listened"' },
    });
  });

  it("version 0 decodes as it always has: no version, no facts on the award or the guard", () => {
    const decoded = decodeEvent(event("streak.day", { userId: "u", day: "2026-12-05" }), builtinCompiled());
    expect(decoded).toEqual({
      ok: true,
      award: {
        intentKey: "u#2026-12-05#streak.day",
        userId: "u",
        type: "streak.day",
        amount: 10,
        data: { day: "2026-12-05" },
        eventId: "e-1",
        guardTtlSeconds: 90 * 86_400,
        time: "2026-12-05T10:00:00Z",
        day: "2026-12-05",
      },
    });
    if (!decoded.ok) throw new Error("decoded");
    const plan = planAwardTransaction([decoded.award], {
      tableName: "t",
      now: new Date("2026-12-05T12:00:00Z"),
    });
    expect(Object.keys(plan.input.TransactItems?.[0]?.Put?.Item ?? {}).sort()).toEqual(
      ["awardedAt", "amount", "counted", "data", "eventId", "expiresAt", "pk", "sk", "type", "userId"].sort(),
    );
  });

  it("the guard of an award under a published version records the version and what it implies", () => {
    const decoded = decodeEvent(event("quiz.day", { userId: "u", on: "2026-12-05" }), v3);
    if (!decoded.ok) throw new Error("decoded");
    const plan = planAwardTransaction([{ ...decoded.award, campaign: "double" }], {
      tableName: "t",
      now: new Date("2026-12-05T12:00:00Z"),
      dailyCap: 50,
    });
    expect(plan.input.TransactItems?.[0]?.Put?.Item).toMatchObject({
      rulesVersion: 3,
      capped: false,
      keepsDay: "2026-12-05",
      campaign: "double",
    });
    // Not capped: no day total, whatever the cap.
    expect(plan.input.TransactItems).toHaveLength(2);
  });
});

describe("the guard's facts under a published version, exactly", () => {
  it("the version and capped always; units, campaign and keepsDay only when the award has them", () => {
    const plain = decodeEvent(
      event("article.completed", { userId: "u", articleSlug: "a" }),
      version(4, (document) => {
        (document.types["signup.completed"] as { capped: boolean }).capped = false;
      }),
    );
    if (!plain.ok) throw new Error("decoded");
    const now = new Date("2026-12-05T12:00:00Z");
    const guard = planAwardTransaction([plain.award], { tableName: "t", now }).input.TransactItems?.[0]?.Put
      ?.Item;
    expect(Object.keys(guard ?? {}).sort()).toEqual(
      [
        "amount",
        "awardedAt",
        "capped",
        "counted",
        "data",
        "eventId",
        "expiresAt",
        "pk",
        "rulesVersion",
        "sk",
        "type",
        "userId",
      ].sort(),
    );
    expect(guard).toMatchObject({ rulesVersion: 4, capped: true });
    // A version that caps signups: the guard says so, whatever the built-in rule says.
    const signup = decodeEvent(
      event("signup.completed", { userId: "u" }),
      version(5, (document) => {
        (document.types["signup.completed"] as { capped: boolean; memory: number | string }).capped = true;
        (document.types["signup.completed"] as { capped: boolean; memory: number | string }).memory = 90;
      }),
    );
    if (!signup.ok) throw new Error("decoded");
    const signupGuard = planAwardTransaction([signup.award], { tableName: "t", now, dailyCap: 500 });
    expect(signupGuard.input.TransactItems?.[0]?.Put?.Item).toMatchObject({ capped: true });
    // Capped by the version: a day total is written under the cap.
    expect(signupGuard.input.TransactItems).toHaveLength(3);
  });
});

describe("campaignPay: on the event's time, the one paying most alone", () => {
  const at = (iso: string) => Date.parse(iso);
  const campaign = (id: string, extra: Partial<Campaign>): Campaign => ({
    id,
    title: id,
    types: ["article.completed"],
    from: "2026-12-12T00:00:00+01:00",
    to: "2026-12-14T00:00:00+01:00",
    ...extra,
  });
  const double = campaign("double", { multiplier: 2 });
  const plus = campaign("plus", { bonus: 20 });
  const plusToo = campaign("aplus", { bonus: 20 });

  it("within [from, to) of event time, for its types only", () => {
    expect(campaignPay([double], "article.completed", at("2026-12-11T23:00:00Z"), 20)).toEqual({
      xp: 40,
      campaign: "double",
    });
    expect(campaignPay([double], "article.completed", at("2026-12-11T22:59:59.999Z"), 20)).toEqual({
      xp: 20,
    });
    expect(campaignPay([double], "article.completed", at("2026-12-13T23:00:00Z"), 20)).toEqual({ xp: 20 });
    expect(campaignPay([double], "article.shared", at("2026-12-12T12:00:00Z"), 5)).toEqual({ xp: 5 });
  });

  it("the largest alone, a tie to the lowest id; named only when it pays more than the base", () => {
    const t = at("2026-12-12T12:00:00Z");
    expect(campaignPay([plus, double], "article.completed", t, 20)).toEqual({ xp: 40, campaign: "double" });
    expect(campaignPay([plus, double], "article.completed", t, 10)).toEqual({ xp: 30, campaign: "plus" });
    expect(campaignPay([plus, plusToo], "article.completed", t, 20)).toEqual({ xp: 40, campaign: "aplus" });
    expect(campaignPay([plusToo, plus], "article.completed", t, 20)).toEqual({ xp: 40, campaign: "aplus" });
    expect(campaignPay([double], "article.completed", t, 0)).toEqual({ xp: 0 });
  });
});
