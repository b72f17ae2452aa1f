import { isAlias, isNode, LineCounter, parseDocument, visit } from "yaml";
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
    if (isAlias(node) || !isNode(node)) return;
    if (node.tag !== undefined && node.range)
      problems.push({
        path: "",
        why: `${at(node.range[0])}: this value has a tag (${node.tag}): the core schema's plain values only`,
      });
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: document.toJS({ maxAliasCount: 100 }) };
}
