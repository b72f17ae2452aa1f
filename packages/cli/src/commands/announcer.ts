import { type Command, Option } from "commander";
import { commandConfig } from "../cliConfig";
import type { FunctionCode } from "../functions/functionProcess";
import { deployedAnnouncerSettings, startLocalAnnouncer } from "../functions/localAnnouncer";
import { waitUntilAnnounced } from "../grants/waitUntilAnnounced";
import { integer } from "../options";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import { untilSignal } from "../untilSignal";

interface AnnouncerCliOptions {
  function: FunctionCode;
  batchSize: number;
  maxRetries: number;
  timeout: number;
  from: "trim-horizon" | "latest";
  checkpoint?: string;
  drain?: boolean;
  json?: boolean;
}

export function registerAnnouncer(program: Command): void {
  const deployed = deployedAnnouncerSettings();
  program
    .command("announcer")
    .description(
      "run the announcer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one reward.granted on BUS_NAME; given-up batches go to ANNOUNCER_FAILURE_QUEUE_URL. Until SIGINT/SIGTERM",
    )
    .option("--batch-size <n>", "records per invocation", integer(1, 10_000), deployed.batchSize)
    .option(
      "--max-retries <n>",
      "retries of a failing batch before it is given up (-1: until the records expire)",
      integer(-1, 10_000),
      deployed.maximumRetryAttempts,
    )
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), deployed.timeoutMs / 1000)
    .addOption(
      new Option(
        "--from <position>",
        "where to start without a checkpoint: the stream's oldest record, or new ones only",
      )
        .choices(["trim-horizon", "latest"])
        .default("trim-horizon"),
    )
    .option(
      "--checkpoint <file>",
      "keep the stream position in this file, so a restarted announcer resumes where the last one stopped",
    )
    .addOption(
      new Option("--function <code>", "the function's code: its TypeScript source, or the deployable bundle")
        .choices(["source", "artifact"])
        .default("source"),
    )
    .option(
      "--drain",
      "stop once everything the stream held at the start is announced, and say what happened",
    )
    .option("--json", "print the final statistics as JSON")
    .action(async (options: AnnouncerCliOptions) => {
      const config = commandConfig("TABLE_NAME", "BUS_NAME");
      const logger = cliLogger("rewards-announcer-source", config.LOG_LEVEL ?? "info");
      const startedAt = Date.now();
      const announcer = await startLocalAnnouncer({
        config,
        code: options.function,
        settings: {
          ...deployed,
          batchSize: options.batchSize,
          maximumRetryAttempts: options.maxRetries,
          timeoutMs: options.timeout * 1000,
          startingPosition: options.from === "latest" ? "LATEST" : "TRIM_HORIZON",
        },
        checkpointFile: options.checkpoint,
        logger,
        // The function's logs are logs: stderr, like ours (its metrics lines too, at debug).
        onOutput: (line) => {
          if (!line.startsWith('{"_aws"') || logger.isLevelEnabled("debug"))
            process.stderr.write(`${line}\n`);
        },
      });
      if (!config.ANNOUNCER_FAILURE_QUEUE_URL)
        logger.warn(
          "ANNOUNCER_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
        );
      logger.info(
        { table: config.TABLE_NAME, bus: config.BUS_NAME },
        options.drain ? "announcing until caught up" : "announcing; Ctrl-C to stop",
      );
      const caughtUp = options.drain
        ? waitUntilAnnounced(announcer.source, startedAt, Number.POSITIVE_INFINITY)
        : new Promise<never>(() => {});
      await Promise.race([
        untilSignal((signal) => logger.info({ signal }, "stopping: finishing the invocation in flight")),
        announcer.source.done,
        caughtUp,
      ]);
      await announcer.stop();
      const { stats } = announcer;
      const summary = {
        ...stats.outcomes,
        invocations: stats.invocations,
        records: stats.records,
        retries: stats.retries,
        givenUp: announcer.source.givenUp,
      };
      if (options.json) printJson(summary);
      else
        printPairs({
          announced: summary.announced,
          "not announced (retried)": summary.failed,
          invocations: summary.invocations,
          retries: summary.retries,
          "batches given up": summary.givenUp,
        });
    });
}
