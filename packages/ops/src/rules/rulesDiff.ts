import { canonicalJson, pathOf, type RulesDocument } from "@rewards/core";

/** One difference between two documents, at a path. */
export type RulesDifference =
  | { kind: "added"; path: string; value: unknown }
  | { kind: "removed"; path: string; value: unknown }
  | { kind: "changed"; path: string; from: unknown; to: unknown };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Lists keyed by `id` (campaigns, achievements) are compared by id, not by position. */
const byId = (list: unknown[]) =>
  list.every((entry) => isObject(entry) && typeof entry.id === "string")
    ? new Map(list.map((entry) => [String((entry as { id: string }).id), entry]))
    : undefined;

/**
 * What `rewards rules diff` prints (docs/rules.md#the-cli): every difference between the version
 * in force and a file, by path — types and achievements by name, campaigns by id. Pure.
 */
export function rulesDiff(from: RulesDocument, to: RulesDocument): RulesDifference[] {
  const out: RulesDifference[] = [];
  walk(from, to, "", out);
  return out;
}

/** `path` and one key more, as `pathOf` writes it. */
const child = (path: string, key: string) => {
  const step = pathOf([key]);
  return path === "" ? step : step.startsWith("[") ? `${path}${step}` : `${path}.${step}`;
};

function walk(a: unknown, b: unknown, at: string, out: RulesDifference[]): void {
  if (canonicalJson(a) === canonicalJson(b)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in b)) out.push({ kind: "removed", path: child(at, key), value: a[key] });
      else if (!(key in a)) out.push({ kind: "added", path: child(at, key), value: b[key] });
      else walk(a[key], b[key], child(at, key), out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = byId(a);
    const right = byId(b);
    if (left && right) {
      for (const [id, entry] of left)
        if (!right.has(id)) out.push({ kind: "removed", path: `${at}[id=${id}]`, value: entry });
      for (const [id, entry] of right) {
        const was = left.get(id);
        if (was === undefined) out.push({ kind: "added", path: `${at}[id=${id}]`, value: entry });
        else walk(was, entry, `${at}[id=${id}]`, out);
      }
      return;
    }
  }
  out.push({ kind: "changed", path: at, from: a, to: b });
}

/** Differences as lines: `+ path: value`, `- path: value`, `~ path: from → to`. */
export function describeRulesDiff(differences: readonly RulesDifference[]): string {
  if (differences.length === 0) return "no differences";
  return differences
    .map((difference) => {
      if (difference.kind === "added") return `+ ${difference.path}: ${JSON.stringify(difference.value)}`;
      if (difference.kind === "removed") return `- ${difference.path}: ${JSON.stringify(difference.value)}`;
      return `~ ${difference.path}: ${JSON.stringify(difference.from)} → ${JSON.stringify(difference.to)}`;
    })
    .join("\n");
}
