import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "history",
    description: "every published version, oldest first: when, its digest and note; the one in force marked",
  },
  options: (command) =>
    command.option("--json", "print JSON: {current, versions: [{version, publishedAt, digest, note?}]}"),
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    const { clientsFor, describeRulesHistory, listRulesVersions, readCurrentRules } = await import(
      "@rewards/ops"
    );
    const { dynamo } = clientsFor(config);
    const [versions, current] = await Promise.all([
      listRulesVersions(dynamo, config.TABLE_NAME),
      readCurrentRules(dynamo, config.TABLE_NAME),
    ]);
    const inForce = current.kind === "invalid" ? undefined : current.version.version;
    if (options.json) return { out: jsonText({ current: inForce ?? null, versions }) };
    const lines = [describeRulesHistory(versions, inForce)];
    if (current.kind === "invalid") lines.push(`CURRENT cannot be used: ${current.why}`);
    return { out: `${lines.join("\n")}\n` };
  },
});
