import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { readExpectation } from "../expectations";
import { plural, printJson, printTable } from "../output";
import { compareXp } from "../profiles";
import { type WaitOptions, waitForQueue, waitOption, waitTimeoutOption } from "../queues/drainOptions";

export function registerVerify(program: Command): void {
  program
    .command("verify")
    .summary("compare users' XP with an expectation file (hand-written, or `rewards load --expect FILE`'s)")
    .description(
      'compare each user an expectation file lists with the table\'s XP; exit 1 on any mismatch. The file is `{ "users": { "<userId>": <xp> } }`, written by hand or by `rewards load --expect FILE`',
    )
    .requiredOption(
      "--expect <file>",
      "the expectation file (hand-written, or written by rewards load --expect)",
    )
    .addOption(waitOption())
    .addOption(waitTimeoutOption())
    .option("--json", "print JSON")
    .action(async (options: { expect: string; json?: boolean } & WaitOptions) => {
      const expectation = await readExpectation(options.expect);
      const config = commandConfig("TABLE_NAME", ...(options.wait ? (["QUEUE_URL"] as const) : []));
      const { dynamo, sqs } = clientsFor(config);
      if (options.wait && config.QUEUE_URL)
        await waitForQueue(sqs, config.QUEUE_URL, options.timeout, options.json);
      const report = await compareXp(dynamo, config.TABLE_NAME, expectation.users);
      if (options.json) printJson({ ok: report.mismatches.length === 0, ...report });
      else {
        if (report.mismatches.length > 0)
          printTable(
            report.mismatches.map((m) => ({ ...m })),
            ["userId", "expected", "actual"],
          );
        process.stdout.write(
          `${plural(report.users, "user")}, expected ${report.expectedTotal} XP, found ${report.actualTotal} XP: ` +
            `${report.mismatches.length === 0 ? "all match" : plural(report.mismatches.length, "mismatch", "mismatches")}\n`,
        );
      }
      if (report.mismatches.length > 0) process.exitCode = 1;
    });
}
