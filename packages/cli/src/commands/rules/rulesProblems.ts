import { describeRulesProblems, type RulesProblem } from "@rewards/core";
import { CliError } from "../../runtime/cliError";

/** Problems as the failure `rules check`, `diff` and `publish` end with (exit 1): one a line, by path. */
export function rulesProblemsError(what: string, problems: readonly RulesProblem[]): CliError {
  const lines = describeRulesProblems(problems)
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return new CliError(`${what}: ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${lines}`);
}

/** Warnings, one a line, for stderr; undefined when there are none. */
export function rulesWarnings(warnings: readonly RulesProblem[]): string | undefined {
  return warnings.length === 0
    ? undefined
    : `${describeRulesProblems(warnings)
        .split("\n")
        .map((line) => `warning: ${line}`)
        .join("\n")}\n`;
}
