import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

export default defineCommand<{ outputs: string; json?: boolean }>()({
  meta: {
    name: "env",
    description:
      "print the variables that point this CLI at a deployed stage, from its outputs (.sst/outputs.json after `sst deploy`), naming the stage; unset what points a shell at the local stack (`rewards dev`'s endpoints, queues, page and credentials)",
  },
  options: (command) =>
    command
      .option("--outputs <file>", "the outputs file", ".sst/outputs.json")
      .option("--json", "print JSON: the variables to export (REWARDS_STAGE names the stage)"),
  async run({ options }) {
    const [
      { readFile },
      { describeIssues, toIssues },
      { stageEnvironment, stageOutputsSchema },
      { stageEnvText },
    ] = await Promise.all([
      import("node:fs/promises"),
      import("@rewards/core"),
      import("@rewards/core/deploy"),
      import("../text/stageEnvText"),
    ]);
    let text: string;
    try {
      text = await readFile(options.outputs, "utf8");
    } catch (error) {
      throw new CliError(
        `cannot read ${options.outputs} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run \`npx sst deploy --stage <stage>\` first, or pass --outputs`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError(`${options.outputs} is not JSON`);
    }
    const parsed = stageOutputsSchema.safeParse(json);
    if (!parsed.success) {
      const problems = describeIssues(toIssues(parsed.error.issues));
      throw new CliError(
        `${options.outputs} lacks what the CLI needs (${problems}): is it a rewards stage's outputs?`,
      );
    }
    const env = stageEnvironment(parsed.data);
    const warning =
      parsed.data.dailyXpCap === undefined
        ? `rewards: ${options.outputs} does not say the stage's daily cap (deployed before dailyXpCap was an output): REWARDS_DAILY_XP_CAP left as it is; deploy the stage again to have it\n`
        : undefined;
    return { warning, out: options.json ? jsonText(env.exports) : stageEnvText(env, options.outputs) };
  },
});
