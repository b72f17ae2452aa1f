import type { Campaign, RulesDocument, TypeRule } from "./rulesDocument";
import { pathOf, type RulesProblem } from "./rulesProblem";

/** How long a type has remembered intents: whole days, or forever. */
export type Memory = number | "forever";
/** The longest memory each type has ever had, over every version published (and version 0). */
export type LongestMemory = Readonly<Record<string, Memory>>;

export interface RulesChangeContext {
  /** The document in force: `CURRENT`'s, or the built-in rules when nothing is published. */
  current: RulesDocument;
  /** What `current`'s version recorded: each type's longest memory ever. */
  longestMemory: LongestMemory;
  /** Epoch ms: the publish. */
  now: number;
}

export interface RulesChange {
  /** What the new version may not do: it is refused. */
  problems: RulesProblem[];
  /** Allowed, but likely a mistake (a rename pays each reading once under each name). */
  warnings: RulesProblem[];
}

const DAY_MS = 86_400_000;

/** Whether `a` remembers longer than `b`. */
export function longerMemory(a: Memory, b: Memory): boolean {
  if (a === "forever") return b !== "forever";
  return b !== "forever" && a > b;
}

/** The longest memory each type has ever had, once `next` is published too. Pure. */
export function longestMemoryAfter(longest: LongestMemory, next: RulesDocument): Record<string, Memory> {
  const after: Record<string, Memory> = { ...longest };
  for (const [type, rule] of Object.entries(next.types)) {
    const before = after[type];
    if (before === undefined || longerMemory(rule.memory, before)) after[type] = rule.memory;
  }
  return after;
}

/** The longest memory each type of `document` has: version 0's, or a first document's own. */
export function memoryOf(document: RulesDocument): Record<string, Memory> {
  return longestMemoryAfter({}, document);
}

/**
 * What `next` may not change against the version in force (docs/rules.md, "What a new version
 * may not change"), each refusal closing a way to pay a reading twice or unfairly:
 * - a type's key, the kind of a field in it, or its `day` field: the meaning of an intent key
 *   is fixed forever;
 * - a type's memory past the longest it has ever had: a replay of a reading whose guard is gone
 *   would pay again;
 * - a type or an achievement removed (retire it), an achievement's condition changed, the format
 *   gone back;
 * - a campaign once its `from` has passed (only `to` may come earlier, not before now), a new
 *   campaign reaching back before the publish, a campaign dropped while a replay could still
 *   meet it.
 * Pure.
 */
export function checkRulesChange(next: RulesDocument, context: RulesChangeContext): RulesChange {
  const { current, longestMemory } = context;
  const problems: RulesProblem[] = [];
  const warnings: RulesProblem[] = [];
  const problem = (segments: Array<string | number>, why: string) =>
    problems.push({ path: pathOf(segments), why });
  if (next.format < current.format)
    problem(["format"], `the format never goes back (the version in force is format ${current.format})`);
  for (const [type, was] of Object.entries(current.types)) {
    const rule = next.types[type];
    if (rule === undefined) {
      problem(["types", type], "a type is never removed: set retired: true");
      continue;
    }
    if (JSON.stringify(rule.key) !== JSON.stringify(was.key))
      problem(
        ["types", type, "key"],
        `the key is fixed forever (was [${was.key.join(", ")}]): a changed key pays each reading again`,
      );
    else
      rule.key.forEach((field, i) => {
        const kind = rule.data[field]?.type;
        const wasKind = was.data[field]?.type;
        if (kind !== wasKind)
          problem(
            ["types", type, "data", field, "type"],
            `a key field's kind is fixed forever (was ${wasKind}, key[${i}])`,
          );
      });
    if (rule.day !== was.day)
      problem(
        ["types", type, "day"],
        `the day an intent is about is fixed forever (was ${was.day ?? "none"})`,
      );
  }
  for (const [type, rule] of Object.entries(next.types)) {
    const longest = longestMemory[type];
    if (longest !== undefined && longerMemory(rule.memory, longest))
      problem(
        ["types", type, "memory"],
        `at most ${longest}${longest === "forever" ? "" : " days"}, the longest it has ever had: a replay of a reading whose guard is already gone would pay again`,
      );
  }
  const nextAchievements = new Map(
    next.achievements.map((achievement, i) => [achievement.id, { achievement, i }]),
  );
  for (const was of current.achievements) {
    const found = nextAchievements.get(was.id);
    if (found === undefined) problem(["achievements"], `${was.id} is never removed: set retired: true`);
    else if (JSON.stringify(found.achievement.when) !== JSON.stringify(was.when))
      problem(
        ["achievements", found.i, "when"],
        `${was.id}'s condition is fixed (was ${JSON.stringify(was.when)}): give a new one a new id`,
      );
    else if (was.retired && !found.achievement.retired)
      problem(
        ["achievements", found.i, "retired"],
        `${was.id} is retired for good: instants while it was retired would count after the fact (give a new one a new id)`,
      );
  }
  campaignProblems(next, context, problem);
  for (const [type, rule] of Object.entries(next.types)) {
    if (current.types[type] !== undefined) continue;
    for (const [retired, was] of Object.entries(next.types))
      if (was.retired && current.types[retired]?.retired === false && sameKey(rule, was))
        warnings.push({
          path: pathOf(["types", type]),
          why: `its key is ${retired}'s, retired in this version: a rename pays each reading once under each name`,
        });
  }
  return { problems, warnings };
}

/** Whether two types' keys name the same fields of the same kinds, in order. */
function sameKey(a: TypeRule, b: TypeRule): boolean {
  return (
    a.key.length === b.key.length &&
    a.key.every((field, i) => field === b.key[i] && a.data[field]?.type === b.data[field]?.type)
  );
}

function campaignProblems(
  next: RulesDocument,
  { current, longestMemory, now }: RulesChangeContext,
  problem: (segments: Array<string | number>, why: string) => void,
): void {
  const before = new Map(current.campaigns.map((campaign) => [campaign.id, campaign]));
  next.campaigns.forEach((campaign, i) => {
    const was = before.get(campaign.id);
    if (was === undefined || Date.parse(was.from) > now) {
      if (Date.parse(campaign.from) < now)
        problem(
          ["campaigns", i, "from"],
          "not before the publish: a campaign never reaches back past awards already paid",
        );
      return;
    }
    for (const field of ["types", "from", "multiplier", "bonus"] as const)
      if (JSON.stringify(campaign[field]) !== JSON.stringify(was[field]))
        problem(
          ["campaigns", i, field],
          `frozen once the campaign has begun (was ${JSON.stringify(was[field]) ?? "none"})`,
        );
    if (Date.parse(campaign.to) > Date.parse(was.to))
      problem(["campaigns", i, "to"], `may only come earlier (was ${was.to})`);
    else if (campaign.to !== was.to && Date.parse(campaign.to) < now)
      problem(["campaigns", i, "to"], "not before now: awards already paid under it keep what it gave");
  });
  const kept = new Set(next.campaigns.map((campaign) => campaign.id));
  for (const was of current.campaigns)
    if (!kept.has(was.id) && Date.parse(was.from) <= now && !droppable(was, longestMemory, now))
      problem(
        ["campaigns"],
        `${was.id} may be dropped only once its to plus its types' longest memory has passed: a replay could still meet it`,
      );
}

/** A begun campaign no replay can meet any more: its `to` plus its types' longest memory has passed. */
function droppable(campaign: Campaign, longestMemory: LongestMemory, now: number): boolean {
  let days = 0;
  for (const type of campaign.types) {
    const memory = longestMemory[type];
    if (memory === "forever") return false;
    days = Math.max(days, memory ?? 0);
  }
  return Date.parse(campaign.to) + days * DAY_MS <= now;
}
