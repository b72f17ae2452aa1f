import { type WaitOptions, waitForQueue, waitOption, waitTimeoutOption } from "../options/drainOptions";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, tableText } from "../runtime/text";

interface VerifyOptions extends WaitOptions {
  expect: string;
  json?: boolean;
}

export default defineCommand<VerifyOptions>()({
  meta: {
    name: "verify",
    summary: "compare users' XP with an expectation file (hand-written, or `rewards load --expect FILE`'s)",
    description:
      'compare each user an expectation file lists with the table\'s XP; exit 1 on any mismatch. The file is `{ "users": { "<userId>": <xp> } }`, written by hand or by `rewards load --expect FILE`',
  },
  options: (command) =>
    command
      .requiredOption(
        "--expect <file>",
        "the expectation file (hand-written, or written by rewards load --expect)",
      )
      .addOption(waitOption())
      .addOption(waitTimeoutOption())
      .option("--json", "print JSON"),
  needs: ["TABLE_NAME"],
  async run({ options, config: tableOnly, configWith, io }) {
    const { readExpectation } = await import("@rewards/scenario");
    const expectation = await readExpectation(options.expect);
    // The queue only for --wait.
    const config = options.wait ? configWith("QUEUE_URL") : tableOnly;
    const [{ clientsFor, compareXp }, { plural }] = await Promise.all([
      import("@rewards/ops"),
      import("@rewards/core"),
    ]);
    const { dynamo, sqs } = clientsFor(config);
    if (options.wait && config.QUEUE_URL)
      await waitForQueue(io, sqs, config.QUEUE_URL, options.timeout, options.json);
    const report = await compareXp(dynamo, config.TABLE_NAME, expectation.users);
    const exitCode = report.mismatches.length > 0 ? { exitCode: 1 as const } : {};
    if (options.json)
      return { out: jsonText({ ok: report.mismatches.length === 0, ...report }), ...exitCode };
    const table =
      report.mismatches.length > 0
        ? tableText(
            report.mismatches.map((m) => ({ ...m })),
            ["userId", "expected", "actual"],
          )
        : "";
    const line =
      `${plural(report.users, "user")}, expected ${report.expectedTotal} XP, found ${report.actualTotal} XP: ` +
      `${report.mismatches.length === 0 ? "all match" : plural(report.mismatches.length, "mismatch", "mismatches")}\n`;
    return { out: table + line, ...exitCode };
  },
});
