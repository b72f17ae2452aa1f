import { BUILTIN_RULES } from "../src/domain/rules/builtinRules";
import { checkRules } from "../src/domain/rules/checkRules";
import type { RulesDocument } from "../src/domain/rules/rulesDocument";
import { describeRulesProblems } from "../src/domain/rules/rulesProblem";

/** A rules document as a test edits it: plain maps and lists. */
export type EditableRules = {
  format: number;
  types: Record<string, Record<string, unknown>>;
  campaigns: Array<Record<string, unknown>>;
  achievements: Array<Record<string, unknown>>;
};

/** The built-in rules with `change` applied to a deep copy, checked alone (a problem throws). */
export function builtinWith(change: (document: EditableRules) => void = () => {}): RulesDocument {
  const copy = structuredClone(BUILTIN_RULES) as unknown as EditableRules;
  change(copy);
  const checked = checkRules(copy);
  if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
  return checked.document;
}
