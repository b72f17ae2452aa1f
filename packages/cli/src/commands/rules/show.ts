import { integer } from "../../options/parsers";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";

export default defineCommand<{ version?: number; json?: boolean; yaml?: boolean }>()({
  meta: {
    name: "show",
    description:
      "print the rules in force (or --version N; 0 is the built-in rules): its version, when it was published and why, then its document as YAML, the form `rules publish` takes",
  },
  options: (command) =>
    command
      .option("--version <n>", "a published version instead of the one in force", integer(0))
      .option("--json", "print JSON: {version, publishedAt?, note?, document}")
      .option("--yaml", "print the document alone, as YAML (to edit and publish)"),
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    if (options.json && options.yaml) throw new CliError("--json and --yaml: choose one", 2);
    const { clientsFor, currentRulesOrFail, readRulesVersion, rulesYaml } = await import("@rewards/ops");
    const { dynamo } = clientsFor(config);
    const shown =
      options.version === undefined
        ? await currentRulesOrFail(dynamo, config.TABLE_NAME)
        : await readRulesVersion(dynamo, config.TABLE_NAME, options.version);
    const { version, publishedAt, note, document } = shown;
    if (options.json)
      return {
        out: jsonText({
          version,
          ...(publishedAt ? { publishedAt } : {}),
          ...(note ? { note } : {}),
          document,
        }),
      };
    const yaml = rulesYaml(document).trimEnd();
    if (options.yaml) return { out: `${yaml}\n` };
    const head =
      version === 0
        ? "# version 0: the built-in rules (nothing published)"
        : `# version ${version}, published ${publishedAt}${note ? `: ${note}` : ""}`;
    return { out: `${head}\n${yaml}\n` };
  },
});
