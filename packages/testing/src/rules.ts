import { BUILTIN_RULES, checkRules, describeRulesProblems, type RulesDocument } from "@rewards/core";

/** A rules document as a test edits it: plain maps and lists. */
export interface EditableRules {
  format: number;
  types: Record<string, Record<string, unknown>>;
  campaigns: Array<Record<string, unknown>>;
  achievements: Array<Record<string, unknown>>;
}

/** The built-in rules with `change` applied to a deep copy, checked alone (a problem throws). */
export function rulesWith(change: (document: EditableRules) => void = () => {}): RulesDocument {
  const copy = structuredClone(BUILTIN_RULES) as unknown as EditableRules;
  change(copy);
  const checked = checkRules(copy);
  if (!checked.ok) throw new Error(describeRulesProblems(checked.problems));
  return checked.document;
}
