import { createSqsClient } from "@rewards/core";
import { createHandler, createWorkerDeps, startPoller } from "@rewards/worker";
import type { Command } from "commander";
import { commandConfig } from "../environment";
import { integer } from "../options";
import { printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";
import { WorkerStats } from "../workerStats";

export interface PollerCliOptions {
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
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), 30);
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
      const logger = cliLogger("rewards-poller", config.LOG_LEVEL);
      const stats = new WorkerStats();
      const poller = await startPoller({
        sqs: createSqsClient(config, { requestTimeoutMs: (options.wait + 10) * 1000 }),
        queueUrl: config.QUEUE_URL,
        // The same handler Lambda runs (packages/worker/src/handler.ts), over this process's env.
        handler: createHandler(createWorkerDeps(process.env)),
        logger,
        ...pollerSettings(options),
        onBatch: (summary) => stats.recordBatch(summary),
      });
      logger.info({ queueUrl: config.QUEUE_URL, pollers: options.pollers }, "polling; Ctrl-C to stop");
      await Promise.race([
        untilSignal((signal) => logger.info({ signal }, "stopping: finishing in-flight batches")),
        poller.done,
      ]);
      await poller.stop();
      const summary = { batches: stats.batches, messages: stats.messages, redelivered: stats.redelivered };
      // One line: stdout also carries the handler's EMF metric lines, so the summary is the last line.
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else printPairs(summary);
    });
}
