import { integer } from "../../options/parsers";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { rulesProblemsError, rulesWarnings } from "./rulesProblems";

export default defineCommand<{ note?: string; dryRun?: boolean; expectVersion?: number; json?: boolean }>()({
  meta: {
    name: "publish",
    args: "<file>",
    description:
      "publish a rules document as the next version: checked alone and against the version in force, then the version item and CURRENT in one transaction on the condition that CURRENT still names the version read. Exit 1, publishing nothing, when a check refuses it or another publish got there first (never retried: diff again)",
  },
  options: (command) =>
    command
      .option("--note <text>", "why, kept with the version (`rules history`)")
      .option("--dry-run", "check and say the version it would be; write nothing")
      .option("--expect-version <n>", "publish only if CURRENT names version n", integer(0))
      .option("--json", "print JSON: the result"),
  needs: ["TABLE_NAME"],
  async run({ options, args, config }) {
    const [file] = args as [string];
    const { clientsFor, describePublish, publishRules, readRulesFile } = await import("@rewards/ops");
    const read = await readRulesFile(file);
    if (!read.ok) throw rulesProblemsError(file, read.problems);
    const result = await publishRules(clientsFor(config).dynamo, config.TABLE_NAME, read.document, {
      note: options.note,
      expectVersion: options.expectVersion,
      dryRun: options.dryRun,
    });
    if (result.kind === "refused")
      throw rulesProblemsError(`${file} against version ${result.against}`, result.problems);
    if (result.kind === "race_lost")
      throw new CliError(
        `CURRENT moved to version ${result.current ?? "?"} (expected ${result.expected}): nothing published; diff again`,
      );
    const warning = "warnings" in result ? rulesWarnings(result.warnings) : undefined;
    return {
      ...(warning === undefined ? {} : { warning }),
      out: options.json ? jsonText(result) : `${describePublish(result)}\n`,
    };
  },
});
