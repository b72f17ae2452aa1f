import { integer } from "../../options/parsers";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";

export default defineCommand<{ to: number; dryRun?: boolean; json?: boolean }>()({
  meta: {
    name: "rollback",
    description:
      "publish version N's document again as a new version, with every type and achievement added since kept, retired, and every change the checks refuse kept as it is now (docs/rules.md#rollback)",
  },
  options: (command) =>
    command
      .requiredOption("--to <n>", "the version to go back to (0: the built-in rules)", integer(0))
      .option("--dry-run", "say the version it would publish; write nothing")
      .option("--json", "print JSON: the result"),
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    const { clientsFor, describeRulesDiff, rollbackRulesTo } = await import("@rewards/ops");
    const { from, changes, result } = await rollbackRulesTo(
      clientsFor(config).dynamo,
      config.TABLE_NAME,
      options.to,
      {
        dryRun: options.dryRun,
      },
    );
    if (result.kind === "race_lost")
      throw new CliError(`CURRENT moved to version ${result.current ?? "?"}: nothing published; run again`);
    if (options.json) return { out: jsonText(result) };
    if (result.kind === "unchanged")
      return {
        out: `version ${result.version} already has version ${options.to}'s rules: nothing published\n`,
      };
    const what = result.kind === "published" ? "published" : "would publish (--dry-run)";
    return {
      out: `${what} version ${"version" in result ? result.version : "?"}: version ${options.to}'s rules, against version ${from}:\n${describeRulesDiff(changes)}\n`,
    };
  },
});
