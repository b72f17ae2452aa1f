import type { Command } from "commander";
import { runDemo } from "../demo/runDemo";
import { integer, ratio } from "../options";
import { printJson, printPairs, printTable } from "../output";
import { cliLogger } from "../stdErrLogger";

interface DemoCommandOptions {
  events: number;
  users: number;
  duplicates: number;
  invalid: number;
  seed: number;
  faultRate: number;
  timeout: number;
  json?: boolean;
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "run the whole system locally: publish a mixed stream, process it under injected faults, replay the DLQ, verify every intent paid exactly once",
    )
    .option("--events <n>", "messages to publish", integer(1), 2000)
    .option("--users <n>", "distinct users", integer(1), 100)
    .option("--duplicates <ratio>", "share repeating an earlier intent", ratio, 0.25)
    .option("--invalid <ratio>", "share of poison messages", ratio, 0.02)
    .option("--seed <n>", "seed for traffic and faults", integer(0), 1)
    .option("--fault-rate <ratio>", "share of DynamoDB transactions that fail transiently", ratio, 0.1)
    .option("--timeout <seconds>", "give up draining after this long", integer(1), 120)
    .option("--json", "print JSON")
    .action(async (options: DemoCommandOptions) => {
      const logger = cliLogger("rewards-demo", process.env.LOG_LEVEL ?? "warn");
      const report = await runDemo({
        ...options,
        timeoutMs: options.timeout * 1000,
        logger,
        onPhase: options.json ? undefined : (phase) => process.stderr.write(`• ${phase}\n`),
      });
      if (options.json) printJson(report);
      else {
        printPairs({
          published: report.published,
          "unique intents": report.uniqueIntents,
          awarded: report.awarded,
          duplicates: `${report.duplicates} (${report.duplicatesSent} sent as duplicates)`,
          parked: `${report.parked} (${report.poisonSent} poison sent)`,
          "DLQ replayed / parked again": `${report.replayed} / ${report.parkedAgain}`,
          redelivered: `${report.redelivered} (${report.transientFailures} transient failures, ${report.faultsInjected} faults injected)`,
          users: report.users,
          "expected XP": report.expectedXp,
          "actual XP": report.actualXp,
          time: `${report.seconds} s`,
        });
        if (report.mismatches.length > 0) printTable(report.mismatches.slice(0, 20).map((m) => ({ ...m })));
        process.stdout.write(
          report.ok ? "OK: every intent paid exactly once.\n" : `FAILED: ${report.problems.join("; ")}\n`,
        );
      }
      if (!report.ok) process.exitCode = 1;
    });
}
