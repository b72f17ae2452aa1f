import {
  addPollerOptions,
  dailyCapOf,
  dailyCapOption,
  type PollerCliOptions,
  pollerSettings,
} from "../options/pollerOptions";
import { defineCommand } from "../runtime/defineCommand";
import { pairsText } from "../runtime/text";

interface WorkerOptions extends PollerCliOptions {
  json?: boolean;
  drain?: boolean;
  dailyCap?: number;
}

export default defineCommand<WorkerOptions>()({
  meta: {
    name: "worker",
    description: "run the Lambda handler against QUEUE_URL with Lambda's SQS semantics, until SIGINT/SIGTERM",
  },
  options: (command) =>
    addPollerOptions(command)
      .addOption(dailyCapOption())
      .option(
        "--drain",
        "stop once the queue is empty (nothing visible, in flight or delayed), and say what happened",
      )
      .option("--json", "print the final statistics as JSON"),
  needs: ["QUEUE_URL", "TABLE_NAME"],
  async run({ options, config: shell, io }) {
    const config = {
      ...shell,
      REWARDS_DAILY_XP_CAP: dailyCapOf(options.dailyCap, shell.REWARDS_DAILY_XP_CAP),
    };
    const { functionLinesTo, startLocalWorker } = await import("@rewards/local");
    const { clientsFor, waitUntilDrained } = await import("@rewards/ops");
    const logger = await io.logger("rewards-poller", config.LOG_LEVEL ?? "info");
    const worker = await startLocalWorker({
      config,
      code: options.function,
      // Draining polls briefly: a long poll still open when the command ends could take a
      // message that arrives after it (the local SQS serves an abandoned poll to its end).
      settings: {
        ...pollerSettings(options),
        ...(options.drain ? { waitTimeSeconds: Math.min(options.wait, 1) } : {}),
      },
      logger,
      onOutput: functionLinesTo(io.err, logger),
    });
    const { sqs } = clientsFor(config);
    logger.info(
      { queueUrl: config.QUEUE_URL, pollers: options.pollers },
      options.drain ? "processing until the queue is empty" : "polling; Ctrl-C to stop",
    );
    const drained = options.drain
      ? waitUntilDrained(sqs, config.QUEUE_URL, { timeoutMs: Number.POSITIVE_INFINITY })
      : new Promise<never>(() => {});
    await Promise.race([
      io.untilSignal((signal) => logger.info({ signal }, "stopping: finishing in-flight batches")),
      worker.poller.done,
      drained,
    ]);
    await worker.stop();
    const { stats } = worker;
    const summary = {
      messages: stats.messages,
      ...stats.outcomes,
      redelivered: stats.redelivered,
      batches: stats.batches,
    };
    if (options.json) return { out: `${JSON.stringify(summary)}\n` };
    const { batches: _batches, ...counts } = summary;
    return { out: pairsText(counts) };
  },
});
