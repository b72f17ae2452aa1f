import { type Command, Option } from "commander";
import { commandConfig } from "../cliConfig";
import { startLocalWorker } from "../localWorker";
import { integer } from "../options";
import { printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";
import type { FunctionCode } from "../workerFunction";

export interface PollerCliOptions {
  function: FunctionCode;
  pollers: number;
  batchSize: number;
  wait: number;
  window: number;
  timeout: number;
}

export function addPollerOptions(command: Command, { minPollers = 1 } = {}): Command {
  return command
    .option(
      "--pollers <n>",
      minPollers === 0
        ? "concurrent receive loops (0: the stack only, no poller)"
        : "concurrent receive loops",
      integer(minPollers, 100),
      2,
    )
    .option(
      "--batch-size <n>",
      "messages per invocation: 1–10, or up to 10,000 with --window of at least 1000",
      integer(1, 10_000),
      10,
    )
    .option("--wait <seconds>", "long-poll wait per receive", integer(0, 20), 20)
    .option("--window <ms>", "batch window: keep gathering messages this long", integer(0, 300_000), 0)
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), 30)
    .addOption(
      new Option(
        "--function <code>",
        "the function's code: its TypeScript source, or the deployable bundle (npm run build:function)",
      )
        .choices(["source", "artifact"])
        .default("source"),
    );
}

export function pollerSettings(options: PollerCliOptions) {
  return {
    pollers: options.pollers,
    batchSize: options.batchSize,
    waitTimeSeconds: options.wait,
    batchWindowMs: options.window,
    timeoutMs: options.timeout * 1000,
  };
}

export function registerWorker(program: Command): void {
  addPollerOptions(
    program
      .command("worker")
      .description(
        "run the Lambda handler against QUEUE_URL with Lambda's SQS semantics, until SIGINT/SIGTERM",
      ),
  )
    .option("--json", "print the final statistics as JSON")
    .action(async (options: PollerCliOptions & { json?: boolean }) => {
      const config = commandConfig("QUEUE_URL", "TABLE_NAME");
      const logger = cliLogger("rewards-poller", config.LOG_LEVEL ?? "info");
      const worker = await startLocalWorker({
        config,
        code: options.function,
        settings: pollerSettings(options),
        logger,
        // The function's log lines, as CloudWatch Logs would get them.
        onOutput: (line) => process.stdout.write(`${line}\n`),
      });
      logger.info({ queueUrl: config.QUEUE_URL, pollers: options.pollers }, "polling; Ctrl-C to stop");
      await Promise.race([
        untilSignal((signal) => logger.info({ signal }, "stopping: finishing in-flight batches")),
        worker.poller.done,
      ]);
      await worker.stop();
      const { stats } = worker;
      const summary = { batches: stats.batches, messages: stats.messages, redelivered: stats.redelivered };
      // One line: stdout also carries the function's log lines, so the summary is the last line.
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else printPairs(summary);
    });
}
