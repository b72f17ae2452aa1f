import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { rulesProblemsError, rulesWarnings } from "./rulesProblems";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "check",
    args: "<file>",
    description:
      "check a rules document (YAML or JSON) alone, then against the version in force when TABLE_NAME is set: exit 1 naming every problem by its path and why (a YAML error by line and column), nothing written",
  },
  options: (command) => command.option("--json", "print JSON: {file, ok, against, warnings}"),
  async run({ options, args, config }) {
    const [file] = args as [string];
    const { clientsFor, readRulesFile, rulesAgainstCurrent, rulesSummary } = await import("@rewards/ops");
    const read = await readRulesFile(file);
    if (!read.ok) throw rulesProblemsError(file, read.problems);
    if (config.TABLE_NAME === undefined)
      return {
        warning: "rewards: not checked against the version in force: TABLE_NAME is not set\n",
        out: options.json
          ? jsonText({ file, ok: true, against: null, warnings: [] })
          : `ok: ${rulesSummary(read.document)}\n`,
      };
    const judged = await rulesAgainstCurrent(clientsFor(config).dynamo, config.TABLE_NAME, read.document);
    const against = judged.current.version;
    if (judged.problems.length > 0)
      throw rulesProblemsError(`${file} against version ${against}`, judged.problems);
    const warning = rulesWarnings(judged.warnings);
    return {
      ...(warning === undefined ? {} : { warning }),
      out: options.json
        ? jsonText({ file, ok: true, against, warnings: judged.warnings })
        : `ok: ${rulesSummary(read.document)}; against version ${against}: nothing refused\n`,
    };
  },
});
