/** One thing wrong with a rules document, named by where it is and why (docs/rules.md). */
export interface RulesProblem {
  /** Where: `types["podcast.listened"].key[1]`, `campaigns[0].from`; empty for the whole document. */
  path: string;
  why: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A path as a reader writes it: names joined by dots, other keys quoted in brackets, indexes in brackets. */
export function pathOf(segments: ReadonlyArray<string | number | symbol>): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (typeof segment === "string" && IDENTIFIER.test(segment))
      path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(String(segment))}]`;
  }
  return path;
}

/** Problems as lines: `path: why`, one a line. */
export function describeRulesProblems(problems: readonly RulesProblem[]): string {
  return problems.map(({ path, why }) => (path === "" ? why : `${path}: ${why}`)).join("\n");
}
