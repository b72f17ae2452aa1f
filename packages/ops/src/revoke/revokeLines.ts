import { setTimeout as delay } from "node:timers/promises";
import { compileVersion, parseRevokeLine, type RevokeResult } from "@rewards/core";
import { currentRulesOrFail } from "../rules/rulesVersions";
import { type RevokeDeps, revokeIntent } from "./revokeIntent";

export interface RevokeRunOptions {
  /** At most this many revocations (transactions, or reads in a dry run) a second. */
  rate?: number | undefined;
  /** Lines handled at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Waits so that revocations start at most `rate` a second. */
function pacer(rate: number | undefined) {
  let next = 0;
  return async () => {
    if (!rate) return;
    const wait = next - Date.now();
    next = Math.max(next, Date.now()) + 1000 / rate;
    if (wait > 0) await delay(wait);
  };
}

/**
 * Every non-empty line's result, in line order: unparseable lines are `invalid` (with the
 * worker's own reason), the others revoked (or judged) a few at a time.
 */
export async function revokeLines(
  lines: readonly string[],
  deps: RevokeDeps,
  options: RevokeRunOptions = {},
): Promise<RevokeResult[]> {
  const results: RevokeResult[] = [];
  const work: Array<{ line: number; intentKey: string }> = [];
  // An intent named twice is revoked (or judged) once, by its first line: a dry run and a run
  // with --yes then say the same, and two lines never race for one guard.
  const firstLine = new Map<string, number>();
  // Events are keyed by the rules in force (a site's own types, retired ones too); read only when a line is one.
  const named = (text: string) => /^\s*\{\s*"intentKey"/.test(text);
  const rules = lines.some((text) => text.trim() !== "" && !named(text))
    ? compileVersion(await currentRulesOrFail(deps.dynamo, deps.tableName))
    : undefined;
  for (const [index, text] of lines.entries()) {
    if (text.trim() === "") continue;
    const line = index + 1;
    const parsed = parseRevokeLine(text, rules);
    if (!parsed.ok) {
      results.push({ line, verdict: "invalid", reason: parsed.reason });
      continue;
    }
    const first = firstLine.get(parsed.intentKey);
    if (first === undefined) {
      firstLine.set(parsed.intentKey, line);
      work.push({ line, intentKey: parsed.intentKey });
    } else
      results.push({ line, verdict: "copy", intentKey: parsed.intentKey, reason: `a copy of line ${first}` });
  }
  const total = results.length + work.length;
  let done = results.length;
  options.onProgress?.(done, total);
  const pace = pacer(options.rate);
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const item = work[next++] as { line: number; intentKey: string };
      await pace();
      results.push(await revokeIntent(item.line, item.intentKey, deps));
      options.onProgress?.(++done, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return results.sort((a, b) => a.line - b.line);
}
