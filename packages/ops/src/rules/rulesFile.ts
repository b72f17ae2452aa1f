import { readFile } from "node:fs/promises";
import { checkRules, type RulesDocument, type RulesProblem } from "@rewards/core";
import { parseRulesText } from "@rewards/core/rules-text";
import { OperationError } from "../operationError";

/** A rules file read and checked alone: its document, or every problem by its path (YAML errors by line and column). */
export type RulesFile = { ok: true; document: RulesDocument } | { ok: false; problems: RulesProblem[] };

/** `path`'s text as a rules document (docs/rules.md#the-document); a file that cannot be read throws, naming it. */
export async function readRulesFile(path: string): Promise<RulesFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new OperationError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  const parsed = parseRulesText(text);
  if (!parsed.ok) return parsed;
  const checked = checkRules(parsed.value);
  return checked.ok ? { ok: true, document: checked.document } : { ok: false, problems: checked.problems };
}
