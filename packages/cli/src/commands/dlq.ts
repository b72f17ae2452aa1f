import type { Command } from "commander";
import { CliError } from "../cliError";
import { peekDlq, purgeDlq, queueCounts, replayDlq } from "../dlq/operations";
import { clientsFor, commandConfig } from "../environment";
import { integer } from "../options";
import { printJson, printPairs, printTable } from "../output";

export function registerDlq(program: Command): void {
  const dlq = program.command("dlq").description("inspect and replay the dead-letter queue (DLQ_URL)");

  dlq
    .command("stats")
    .description("how many messages are parked, and how many are being read right now")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const config = commandConfig("DLQ_URL");
      const counts = await queueCounts(clientsFor(config).sqs, config.DLQ_URL);
      if (options.json) printJson(counts);
      else printPairs({ parked: counts.visible, "being read": counts.inFlight, delayed: counts.delayed });
    });

  dlq
    .command("peek")
    .description("show parked messages and why they were parked, without removing them")
    .option("--max <n>", "at most this many", integer(1, 1000), 10)
    .option("--json", "print JSON (with full bodies)")
    .action(async (options: { max: number; json?: boolean }) => {
      const config = commandConfig("DLQ_URL");
      const parked = await peekDlq(clientsFor(config).sqs, config.DLQ_URL, options.max);
      if (options.json) return printJson(parked);
      if (parked.length === 0) return void process.stdout.write("the DLQ is empty\n");
      printTable(
        parked.map((p) => ({ ...p, body: p.body.length > 60 ? `${p.body.slice(0, 57)}...` : p.body })),
        ["sourceMessageId", "error", "reason", "parkedAt", "body"],
      );
    });

  dlq
    .command("replay")
    .description("send parked messages back to QUEUE_URL (safe: the guard pays each intent once)")
    .option("--max <n>", "at most this many", integer(1))
    .option("--json", "print JSON")
    .action(async (options: { max?: number; json?: boolean }) => {
      const config = commandConfig("DLQ_URL", "QUEUE_URL");
      const report = await replayDlq(clientsFor(config).sqs, config.DLQ_URL, config.QUEUE_URL, options.max);
      if (options.json) printJson(report);
      else
        process.stdout.write(
          `${report.replayed} replayed, ${report.failed} failed (left in the DLQ), ${report.skipped} parked again during the replay (left)\n`,
        );
      if (report.failed > 0) process.exitCode = 1;
    });

  dlq
    .command("purge")
    .description("delete every parked message for good")
    .option("--yes", "confirm: the messages cannot be recovered")
    .option("--json", "print JSON")
    .action(async (options: { yes?: boolean; json?: boolean }) => {
      if (!options.yes)
        throw new CliError("purge deletes every parked message for good; add --yes to confirm", 2);
      const config = commandConfig("DLQ_URL");
      await purgeDlq(clientsFor(config).sqs, config.DLQ_URL);
      if (options.json) printJson({ purged: true });
      else process.stdout.write("DLQ purged\n");
    });
}
