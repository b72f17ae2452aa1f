import { BUILTIN_RULES, checkRules, checkRulesChange, longestMemoryAfter, memoryOf } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { DEMO_ACHIEVEMENT, DEMO_TYPE, demoRules, demoRulesPlan } from "../src/traffic/rulesTraffic";

/**
 * What `rewards demo` publishes over the version in force. Found in review: a second run on one
 * table (the demo beside `rewards dev` reuses `rewards-demo`) republished the rules with a new
 * campaign window over a begun, frozen one, and was refused.
 */
describe("the demo's rules over the version in force", () => {
  const first = Date.parse("2026-12-05T10:00:00.000Z");
  const second = first + 10 * 60_000;

  it("a run after one that published them publishes nothing and keeps the first campaign's window", () => {
    const current = demoRules(first);
    expect(demoRulesPlan({ document: current }, second)).toEqual({
      document: current,
      publishAt: first,
      publish: false,
    });
    // What it would have published is refused: the campaign began, its window is frozen.
    const refused = checkRulesChange(demoRules(second), {
      current,
      longestMemory: longestMemoryAfter(memoryOf(current), current),
      now: second,
    });
    expect(refused.problems.map((problem) => problem.path)).toContain("campaigns[0].from");
  });

  it("over a stage's own rules, the demo adds its type, campaign and achievement and keeps the rest", () => {
    const own = structuredClone(BUILTIN_RULES) as unknown as { types: Record<string, unknown> };
    own.types["quiz.passed"] = { data: { quiz: { type: "string" } }, key: ["quiz"], xp: 3, memory: 10 };
    const checked = checkRules(own);
    if (!checked.ok) throw new Error("invalid");
    const plan = demoRulesPlan({ document: checked.document }, second);
    expect(plan.publish).toBe(true);
    expect(Object.keys(plan.document.types)).toEqual([...Object.keys(checked.document.types), DEMO_TYPE]);
    expect(plan.document.achievements.at(-1)?.id).toBe(DEMO_ACHIEVEMENT);
    expect(
      checkRulesChange(plan.document, {
        current: checked.document,
        longestMemory: memoryOf(checked.document),
        now: second,
      }).problems,
    ).toEqual([]);
  });
});
