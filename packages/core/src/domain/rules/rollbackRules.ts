import { checkRules } from "./checkRules";
import { checkRulesChange, type RulesChangeContext } from "./checkRulesChange";
import type { RulesDocument } from "./rulesDocument";
import { describeRulesProblems } from "./rulesProblem";

const TYPE_PATH = /^types\["?([^"\]]+)"?\]|^types\.([A-Za-z_$][\w$]*)/;
const CAMPAIGN_PATH = /^campaigns\[(\d+)\]/;
const ACHIEVEMENT_PATH = /^achievements\[(\d+)\]/;

/**
 * `rewards rules rollback --to N` (docs/rules.md#rollback): version N's document as the new
 * version, except what the checks refuse against the version in force — every type and
 * achievement added since kept, retired; every change that cannot be undone (a key, a memory
 * past the longest, an achievement's condition, a begun campaign) kept as it is now. Pure;
 * throws only if the result still fails (a bug: it is checked again).
 */
export function rollbackRules(target: RulesDocument, context: RulesChangeContext): RulesDocument {
  const { current } = context;
  const next: RulesDocument = structuredClone({
    ...target,
    format: Math.max(target.format, current.format),
  });
  for (const [type, rule] of Object.entries(current.types))
    if (next.types[type] === undefined) next.types[type] = { ...structuredClone(rule), retired: true };
  const ids = new Set(next.achievements.map(({ id }) => id));
  for (const achievement of current.achievements)
    if (!ids.has(achievement.id)) next.achievements.push({ ...structuredClone(achievement), retired: true });
  const campaignIds = new Set(next.campaigns.map(({ id }) => id));
  for (const campaign of current.campaigns)
    if (!campaignIds.has(campaign.id) && Date.parse(campaign.from) <= context.now)
      next.campaigns.push(structuredClone(campaign));
  // Campaigns by id (an index moves once one is dropped), after the types and achievements.
  const campaignsRefused = new Set<string>();
  for (const { path } of checkRulesChange(next, context).problems) {
    const type = TYPE_PATH.exec(path);
    const name = type?.[1] ?? type?.[2];
    if (name !== undefined && current.types[name] !== undefined) {
      const retired = next.types[name]?.retired ?? false;
      next.types[name] = { ...structuredClone(current.types[name]), retired };
      continue;
    }
    const campaign = CAMPAIGN_PATH.exec(path);
    const id = campaign ? next.campaigns[Number(campaign[1])]?.id : undefined;
    if (id !== undefined) {
      campaignsRefused.add(id);
      continue;
    }
    const achievement = ACHIEVEMENT_PATH.exec(path);
    if (achievement) {
      const at = Number(achievement[1]);
      const now = current.achievements.find(({ id }) => id === next.achievements[at]?.id);
      if (now)
        next.achievements[at] = { ...structuredClone(now), retired: next.achievements[at]?.retired ?? false };
    }
  }
  // A refused campaign is kept as it is now, or dropped when it is new since.
  next.campaigns = next.campaigns.flatMap((campaign) => {
    if (!campaignsRefused.has(campaign.id)) return [campaign];
    const now = current.campaigns.find(({ id }) => id === campaign.id);
    return now ? [structuredClone(now)] : [];
  });
  const checked = checkRules(next);
  const left = checked.ok ? checkRulesChange(checked.document, context).problems : checked.problems;
  if (!checked.ok || left.length > 0)
    throw new Error(`the rollback still fails its checks: ${describeRulesProblems(left)}`);
  return checked.document;
}
