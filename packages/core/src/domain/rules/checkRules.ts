import {
  MAX_CAPPED_MEMORY_DAYS,
  RESERVED_FIELDS,
  RULES_FORMAT,
  type RulesDocument,
  type RulesField,
  rulesDocumentSchema,
  type TypeRule,
} from "./rulesDocument";
import { pathOf, type RulesProblem } from "./rulesProblem";

const LEVEL_FAMILY = /^level-/;

/** A document read and checked alone: the document, or every problem found. */
export type CheckedRules = { ok: true; document: RulesDocument } | { ok: false; problems: RulesProblem[] };

/**
 * A document (already parsed from YAML or JSON) checked alone (docs/rules.md): its shape (the
 * zod schema), then what the schema cannot say — keys naming fields that exist, a per-unit
 * field outside the key and never negative, a capped type's memory within the day totals'
 * life, the `day` a key holds named, campaigns and achievements on types that exist, ids
 * unique and not reserved. Every problem, each by its path. Pure.
 */
export function checkRules(input: unknown): CheckedRules {
  const parsed = rulesDocumentSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({ path: pathOf(issue.path), why: issue.message })),
    };
  const document = parsed.data;
  const problems = problemsOf(document);
  return problems.length === 0 ? { ok: true, document } : { ok: false, problems };
}

function problemsOf(document: RulesDocument): RulesProblem[] {
  const problems: RulesProblem[] = [];
  const problem = (segments: Array<string | number>, why: string) =>
    problems.push({ path: pathOf(segments), why });
  if (document.format > RULES_FORMAT)
    problem(["format"], `this version of rewards reads format ${RULES_FORMAT}, not ${document.format}`);
  for (const [type, rule] of Object.entries(document.types)) {
    if (type.startsWith("reward.")) problem(["types", type], "reward.* are the rewards bus's own events");
    typeProblems(rule, (segments, why) => problem(["types", type, ...segments], why));
  }
  const campaignIds = new Set<string>();
  document.campaigns.forEach((campaign, i) => {
    if (campaignIds.has(campaign.id)) problem(["campaigns", i, "id"], `another campaign is ${campaign.id}`);
    campaignIds.add(campaign.id);
    if (Date.parse(campaign.to) <= Date.parse(campaign.from))
      problem(["campaigns", i, "to"], "must be after from");
    campaign.types.forEach((type, j) => {
      if (!Object.hasOwn(document.types, type)) problem(["campaigns", i, "types", j], `no type ${type}`);
    });
  });
  const achievementIds = new Set<string>();
  document.achievements.forEach((achievement, i) => {
    if (achievementIds.has(achievement.id))
      problem(["achievements", i, "id"], `another achievement is ${achievement.id}`);
    achievementIds.add(achievement.id);
    if (LEVEL_FAMILY.test(achievement.id))
      problem(["achievements", i, "id"], "level-* are the levels' own (implicit: never written)");
    const when = achievement.when;
    if ("count" in when && !Object.hasOwn(document.types, when.count))
      problem(["achievements", i, "when", "count"], `no type ${when.count}`);
  });
  return problems;
}

function typeProblems(
  rule: TypeRule,
  problem: (segments: Array<string | number>, why: string) => void,
): void {
  for (const [name, field] of Object.entries(rule.data)) {
    if ((RESERVED_FIELDS as readonly string[]).includes(name))
      problem(["data", name], `${name} is the envelope's or the award's own`);
    fieldProblems(field, (segment, why) => problem(["data", name, segment], why));
  }
  const seen = new Set<string>();
  rule.key.forEach((name, i) => {
    if (seen.has(name)) problem(["key", i], `${name} is already in the key`);
    seen.add(name);
    if (!Object.hasOwn(rule.data, name)) problem(["key", i], `no data field ${name}`);
  });
  if (typeof rule.xp === "object") {
    const field = rule.data[rule.xp.per];
    if (field === undefined) problem(["xp", "per"], `no data field ${rule.xp.per}`);
    else if (field.type !== "integer") problem(["xp", "per"], `${rule.xp.per} must be an integer field`);
    else if (field.minimum === undefined || field.minimum < 0)
      problem(["xp", "per"], `${rule.xp.per} needs minimum ≥ 0 (a negative number of units pays nothing)`);
    if (rule.key.includes(rule.xp.per))
      problem(["xp", "per"], `${rule.xp.per} is in the key: each value would be another intent, paid again`);
  }
  if (rule.capped && (rule.memory === "forever" || rule.memory > MAX_CAPPED_MEMORY_DAYS))
    problem(
      ["memory"],
      `a capped type remembers at most ${MAX_CAPPED_MEMORY_DAYS} days (a day's total lives that long after its day)`,
    );
  const keyDays = rule.key.filter((name) => rule.data[name]?.type === "day");
  if (rule.day !== undefined) {
    if (!rule.key.includes(rule.day) || rule.data[rule.day]?.type !== "day")
      problem(["day"], `${rule.day} must be a key field of type day`);
  } else if (keyDays.length > 0)
    problem(["day"], `the key holds the day field ${keyDays[0]}: name the day the intent is about here`);
  if (rule.keepsStreak && rule.day === undefined) problem(["keepsStreak"], "needs day: the day it keeps");
}

function fieldProblems(field: RulesField, problem: (segment: string, why: string) => void): void {
  if (field.type === "string") {
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength)
      problem("maxLength", "must be at least minLength");
    field.enum?.forEach((value) => {
      const length = [...value].length;
      if (
        (field.minLength !== undefined && length < field.minLength) ||
        (field.maxLength !== undefined && length > field.maxLength)
      )
        problem("enum", `${JSON.stringify(value)} is outside minLength/maxLength`);
    });
  }
  if (
    field.type === "integer" &&
    field.minimum !== undefined &&
    field.maximum !== undefined &&
    field.minimum > field.maximum
  )
    problem("maximum", "must be at least minimum");
}
