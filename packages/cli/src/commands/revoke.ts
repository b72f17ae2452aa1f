import { InvalidArgumentError } from "commander";
import { rate } from "../options/parsers";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

interface RevokeOptions {
  reason: string;
  dryRun?: boolean;
  yes?: boolean;
  rate?: number;
  json?: boolean;
}

function reasonText(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError("must not be empty: say why the awards are revoked");
  return value;
}

/** Past this many lines a terminal gets a progress bar. */
const LARGE = 100;

export default defineCommand<RevokeOptions>()({
  meta: {
    name: "revoke",
    args: "[file]",
    description:
      'take back awards that should never have been paid (docs/revoking.md): NDJSON lines, each an event or {"intentKey": "…"}; a dry run unless --yes',
  },
  // Its argument is described here (and its default); meta.args names it for the list.
  options: (command) =>
    command
      .argument("[file]", "NDJSON file, or - for standard input", "-")
      .requiredOption(
        "--reason <text>",
        "why: stored on each guard and announced in reward.revoked",
        reasonText,
      )
      .option("--dry-run", "change nothing; say what each line would do (the default without --yes)")
      .option("--yes", "revoke: mark each guard and take its XP back from the user")
      .option("--rate <n/s>", "at most this many revocations per second", rate)
      .option("--json", "print JSON"),
  needs: ["TABLE_NAME"],
  async run({ options, args, config, io }) {
    const [file] = args as [string];
    const dryRun = options.dryRun === true || options.yes !== true;
    const [{ clientsFor, revokeLines }, { describeRevocations, revokeReport }] = await Promise.all([
      import("@rewards/ops"),
      import("../text/describeRevocations"),
    ]);
    const { dynamo } = clientsFor(config);
    let input: string;
    try {
      if (file === "-") {
        const { text } = await import("node:stream/consumers");
        input = await text(io.stdin);
      } else {
        const { readFile } = await import("node:fs/promises");
        input = await readFile(file, "utf8");
      }
    } catch (error) {
      throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const lines = input.split(/\r?\n/);
    const progress = io.progress(options.json, dryRun ? "revoke (dry run)" : "revoke");
    const { onProgress } = progress;
    const results = await revokeLines(
      lines,
      { dynamo, tableName: config.TABLE_NAME, reason: options.reason, dryRun },
      {
        rate: options.rate,
        onProgress: onProgress && ((done, total) => (total < LARGE ? undefined : onProgress(done, total))),
      },
    );
    progress.stop();
    const report = revokeReport(results, dryRun, options.reason);
    return {
      out: options.json ? jsonText(report) : `${describeRevocations(report)}\n`,
      ...(report.counts.failed > 0 ? { exitCode: 1 as const } : {}),
    };
  },
});
