import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { rate } from "../options";
import { printJson } from "../output";
import { type Progress, progressBar } from "../progress";
import { describeRevocations, revokeReport } from "../revoke/describeRevocations";
import { revokeLines } from "../revoke/revokeLines";

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

export function registerRevoke(program: Command): void {
  program
    .command("revoke")
    .description(
      'take back awards that should never have been paid (docs/revoking.md): NDJSON lines, each an event or {"intentKey": "…"}; a dry run unless --yes',
    )
    .argument("[file]", "NDJSON file, or - for standard input", "-")
    .requiredOption(
      "--reason <text>",
      "why: stored on each guard and announced in reward.revoked",
      reasonText,
    )
    .option("--dry-run", "change nothing; say what each line would do (the default without --yes)")
    .option("--yes", "revoke: mark each guard and take its XP back from the user")
    .option("--rate <n/s>", "at most this many revocations per second", rate)
    .option("--json", "print JSON")
    .action(async (file: string, options: RevokeOptions) => {
      const dryRun = options.dryRun === true || options.yes !== true;
      const config = commandConfig("TABLE_NAME");
      const { dynamo } = clientsFor(config);
      let input: string;
      try {
        input = file === "-" ? await text(process.stdin) : await readFile(file, "utf8");
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const lines = input.split(/\r?\n/);
      let bar: Progress | undefined;
      const results = await revokeLines(
        lines,
        { dynamo, tableName: config.TABLE_NAME, reason: options.reason, dryRun },
        {
          rate: options.rate,
          onProgress: (done, total) => {
            if (total < LARGE || options.json) return;
            bar ??= progressBar(dryRun ? "revoke (dry run)" : "revoke", total);
            bar.update(done);
          },
        },
      );
      bar?.stop();
      const report = revokeReport(results, dryRun, options.reason);
      if (options.json) printJson(report);
      else process.stdout.write(`${describeRevocations(report)}\n`);
      if (report.counts.failed > 0) process.exitCode = 1;
    });
}
