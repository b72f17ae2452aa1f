import { isAlias, isNode, isPair, isScalar, LineCounter, parseDocument, visit } from "yaml";
import { MAX_RULES_BYTES } from "./rulesDocument";
import type { RulesProblem } from "./rulesProblem";

/** A document's text read: its value, or why it cannot be read (YAML errors by line and column). */
export type RulesText = { ok: true; value: unknown } | { ok: false; problems: RulesProblem[] };

/**
 * A rules document's text (docs/rules.md), YAML 1.2 or JSON (JSON is YAML): the core schema
 * only — no timestamps, no merge keys, no tags — a duplicate key is an error, and at most
 * 300 KB. Each error names its line and column. Pure; its result is then `checkRules`'s input.
 */
export function parseRulesText(text: string): RulesText {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_RULES_BYTES)
    return {
      ok: false,
      problems: [{ path: "", why: `${bytes} bytes: a document is at most ${MAX_RULES_BYTES} bytes` }],
    };
  const lines = new LineCounter();
  const document = parseDocument(text, {
    schema: "core",
    merge: false,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    lineCounter: lines,
  });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  const problems: RulesProblem[] = [...document.errors, ...document.warnings].map((error) => ({
    path: "",
    why: `${at(error.pos[0])}: ${error.message.split("\n")[0]}`,
  }));
  visit(document, (_key, node) => {
    if (isPair(node) && isScalar(node.key) && node.key.value === "__proto__" && node.key.range)
      problems.push({ path: "", why: `${at(node.key.range[0])}: __proto__ is no name a document may use` });
    if (isAlias(node) || !isNode(node)) return;
    if (node.tag !== undefined && node.range)
      problems.push({
        path: "",
        why: `${at(node.range[0])}: this value has a tag (${node.tag}): the core schema's plain values only`,
      });
  });
  if (problems.length > 0) return { ok: false, problems };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Aliases past the limit (a document that would expand without bound).
    return { ok: false, problems: [{ path: "", why: (error as Error).message }] };
  }
  // Aliases expand: the document itself, as stored, is held to the limit too.
  const expanded = new TextEncoder().encode(JSON.stringify(value)).length;
  if (expanded > MAX_RULES_BYTES)
    return {
      ok: false,
      problems: [
        {
          path: "",
          why: `${expanded} bytes once its aliases are expanded: a document is at most ${MAX_RULES_BYTES} bytes`,
        },
      ],
    };
  return { ok: true, value };
}
