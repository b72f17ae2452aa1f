import { createSqsClient } from "@rewards/core/aws";
import { type Command, Option } from "commander";
import { commandConfig } from "../cliConfig";
import { functionLinesToStderr } from "../functions/functionProcess";
import { startLocalWorker } from "../functions/localWorker";
import type { FunctionCode } from "../functions/workerFunction";
import { integer } from "../options";
import { printPairs } from "../output";
import { waitUntilDrained } from "../queues/waitForDrain";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";

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

/**
 * `--daily-cap <n>` (rewards worker, rewards dev): the worker's REWARDS_DAILY_XP_CAP; 0 is none,
 * whatever the shell says. Without the option, the shell's REWARDS_DAILY_XP_CAP.
 */
export function dailyCapOption(): Option {
  return new Option(
    "--daily-cap <xp>",
    "the most XP one user earns per UTC day, handed to the worker as REWARDS_DAILY_XP_CAP; 0: no cap (default: REWARDS_DAILY_XP_CAP)",
  ).argParser(integer(0));
}

/** The cap the worker runs with: the option's (0: none), else the shell's variable. */
export function dailyCapOf(option: number | undefined, fromShell: number | undefined): number | undefined {
  if (option === undefined) return fromShell;
  return option > 0 ? option : undefined;
}

/** The same as the variable a function's (or another shell's) environment takes; {} for no cap. */
export function dailyCapEnv(
  option: number | undefined,
  fromShell: number | undefined,
): { REWARDS_DAILY_XP_CAP?: string } {
  const cap = dailyCapOf(option, fromShell);
  return cap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(cap) };
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
    .addOption(dailyCapOption())
    .option(
      "--drain",
      "stop once the queue is empty (nothing visible, in flight or delayed), and say what happened",
    )
    .option("--json", "print the final statistics as JSON")
    .action(async (options: PollerCliOptions & { json?: boolean; drain?: boolean; dailyCap?: number }) => {
      const shell = commandConfig("QUEUE_URL", "TABLE_NAME");
      const config = {
        ...shell,
        REWARDS_DAILY_XP_CAP: dailyCapOf(options.dailyCap, shell.REWARDS_DAILY_XP_CAP),
      };
      const logger = cliLogger("rewards-poller", config.LOG_LEVEL ?? "info");
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
        onOutput: functionLinesToStderr(logger),
      });
      const sqs = createSqsClient(config);
      logger.info(
        { queueUrl: config.QUEUE_URL, pollers: options.pollers },
        options.drain ? "processing until the queue is empty" : "polling; Ctrl-C to stop",
      );
      const drained = options.drain
        ? waitUntilDrained(sqs, config.QUEUE_URL, { timeoutMs: Number.POSITIVE_INFINITY })
        : new Promise<never>(() => {});
      await Promise.race([
        untilSignal((signal) => logger.info({ signal }, "stopping: finishing in-flight batches")),
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
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        const { batches: _batches, ...counts } = summary;
        printPairs(counts);
      }
    });
}
