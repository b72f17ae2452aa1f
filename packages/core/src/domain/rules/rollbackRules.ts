import { checkRules } from "./checkRules";
import { checkRulesChange, longerMemory, type RulesChangeContext } from "./checkRulesChange";
import type { RulesDocument, TypeRule } from "./rulesDocument";
import { describeRulesProblems } from "./rulesProblem";

/** Whether `next` keeps what an intent key means under `now` (its key, the key fields' kinds, its day). */
function sameMeaning(next: TypeRule, now: TypeRule): boolean {
  return (
    JSON.stringify(next.key) === JSON.stringify(now.key) &&
    next.key.every((field) => next.data[field]?.type === now.data[field]?.type) &&
    next.day === now.day
  );
}

/**
 * `rewards rules rollback --to N` (docs/rules.md#rollback): version N's document as the new
 * version, except what the checks refuse against the version in force — every type and
 * achievement added since kept, retired; every change that cannot be undone kept as it is now:
 * a type whose key, key kinds or day changed since, or whose memory N would grow past the
 * longest (the type as it is now, retired as N had it); an achievement's condition (fixed under
 * its id) and its retirement (for good); a begun campaign (as it is now). N's campaigns whose `from` has passed and that the
 * version in force has not begun are dropped (a campaign never reaches back). Pure; throws only if the result still fails (a bug: it
 * is checked again).
 */
export function rollbackRules(target: RulesDocument, context: RulesChangeContext): RulesDocument {
  const { current, longestMemory, now } = context;
  const next: RulesDocument = structuredClone({ ...target, format: Math.max(target.format, current.format) });
  for (const [type, rule] of Object.entries(current.types)) {
    const back = next.types[type];
    const longest = longestMemory[type];
    if (back === undefined) next.types[type] = { ...structuredClone(rule), retired: true };
    else if (!sameMeaning(back, rule) || (longest !== undefined && longerMemory(back.memory, longest)))
      next.types[type] = { ...structuredClone(rule), retired: back.retired };
  }
  const conditions = new Map(current.achievements.map((achievement) => [achievement.id, achievement]));
  next.achievements = next.achievements.map((achievement) => {
    const held = conditions.get(achievement.id);
    // Its condition is fixed under its id, and a retired one stays retired.
    return held === undefined
      ? achievement
      : { ...achievement, when: structuredClone(held.when), retired: achievement.retired || held.retired };
  });
  const ids = new Set(next.achievements.map(({ id }) => id));
  for (const achievement of current.achievements)
    if (!ids.has(achievement.id)) next.achievements.push({ ...structuredClone(achievement), retired: true });
  const begun = current.campaigns.filter((campaign) => Date.parse(campaign.from) <= now);
  const begunIds = new Set(begun.map(({ id }) => id));
  // N's campaigns that can still begin (none reaches back), then the begun ones as they are now.
  next.campaigns = [
    ...next.campaigns.filter((campaign) => !begunIds.has(campaign.id) && Date.parse(campaign.from) >= now),
    ...structuredClone(begun),
  ];
  const checked = checkRules(next);
  const left = checked.ok ? checkRulesChange(checked.document, context).problems : checked.problems;
  if (!checked.ok || left.length > 0)
    throw new Error(`the rollback still fails its checks: ${describeRulesProblems(left)}`);
  return checked.document;
}
