import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { rulesProblemsError, rulesWarnings } from "./rulesProblems";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "diff",
    args: "<file>",
    description:
      "what publishing a file would change against the version in force, by path (+ added, - removed, ~ changed); exit 1 when a check refuses it",
  },
  options: (command) => command.option("--json", "print JSON: {against, differences, problems, warnings}"),
  needs: ["TABLE_NAME"],
  async run({ options, args, config }) {
    const [file] = args as [string];
    const { clientsFor, describeRulesDiff, readRulesFile, rulesAgainstCurrent, rulesDiff } = await import(
      "@rewards/ops"
    );
    const read = await readRulesFile(file);
    if (!read.ok) throw rulesProblemsError(file, read.problems);
    const { current, problems, warnings } = await rulesAgainstCurrent(
      clientsFor(config).dynamo,
      config.TABLE_NAME,
      read.document,
    );
    const differences = rulesDiff(current.document, read.document);
    const refused = problems.length > 0 ? { exitCode: 1 as const } : {};
    if (options.json)
      return { out: jsonText({ against: current.version, differences, problems, warnings }), ...refused };
    if (problems.length > 0)
      throw rulesProblemsError(
        `${describeRulesDiff(differences)}\n${file} against version ${current.version}`,
        problems,
      );
    const warning = rulesWarnings(warnings);
    return {
      ...(warning === undefined ? {} : { warning }),
      out: `against version ${current.version}:\n${describeRulesDiff(differences)}\n`,
    };
  },
});
