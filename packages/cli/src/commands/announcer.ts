import type { Command } from "commander";
import { commandConfig } from "../cliConfig";
import { functionLinesToStderr } from "../functions/functionProcess";
import { deployedAnnouncerSettings, startLocalAnnouncer } from "../functions/localAnnouncer";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import {
  addStreamFunctionOptions,
  reportRunEnd,
  runUntilStopped,
  type StreamFunctionCliOptions,
  streamSettingsFrom,
} from "./streamFunctionOptions";

export function registerAnnouncer(program: Command): void {
  const deployed = deployedAnnouncerSettings();
  addStreamFunctionOptions(
    program
      .command("announcer")
      .description(
        "run the announcer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one reward.granted on BUS_NAME; given-up batches go to ANNOUNCER_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM",
      ),
    deployed,
    "announcer",
  ).action(async (options: StreamFunctionCliOptions) => {
    const config = commandConfig("TABLE_NAME", "BUS_NAME");
    const logger = cliLogger("rewards-announcer-source", config.LOG_LEVEL ?? "info");
    const startedAt = Date.now();
    const announcer = await startLocalAnnouncer({
      config,
      code: options.function,
      settings: streamSettingsFrom(deployed, options),
      checkpointFile: options.checkpoint,
      logger,
      onOutput: functionLinesToStderr(logger),
    });
    if (!config.ANNOUNCER_FAILURE_QUEUE_URL)
      logger.warn(
        "ANNOUNCER_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
      );
    logger.info(
      { table: config.TABLE_NAME, bus: config.BUS_NAME },
      options.drain ? "announcing until caught up" : "announcing; Ctrl-C to stop",
    );
    const run = await runUntilStopped(announcer, { drain: options.drain, startedAt, logger });
    const { summary } = run;
    if (options.json) printJson(summary);
    else
      printPairs({
        announced: summary.announced,
        "not announced (retried)": summary.failed,
        invocations: summary.invocations,
        retries: summary.retries,
        "batches given up": summary.givenUp,
      });
    reportRunEnd(run, options, "announcer", {
      variable: "ANNOUNCER_FAILURE_QUEUE_URL",
      set: config.ANNOUNCER_FAILURE_QUEUE_URL !== undefined,
      failures: "rewards grants failures",
      replay: "rewards grants replay",
      pastTheStream:
        "announce their awards again from the table with `rewards grants republish --since <when>`",
    });
  });
}
