import type { Command } from "commander";
import { commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { functionLinesToStderr } from "../functions/functionProcess";
import { deployedHistorySettings, startLocalHistory } from "../functions/localHistory";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import {
  addStreamFunctionOptions,
  runUntilStopped,
  type StreamFunctionCliOptions,
  streamSettingsFrom,
} from "./streamFunctionOptions";

export function registerHistory(program: Command): void {
  const deployed = deployedHistorySettings();
  addStreamFunctionOptions(
    program
      .command("history")
      .description(
        "run the history's writer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one history item (docs/history.md); given-up batches go to HISTORY_FAILURE_QUEUE_URL. Until SIGINT/SIGTERM",
      ),
    deployed,
    "history's writer",
  ).action(async (options: StreamFunctionCliOptions) => {
    const config = commandConfig("TABLE_NAME");
    const logger = cliLogger("rewards-history-source", config.LOG_LEVEL ?? "info");
    const days = config.REWARDS_HISTORY_DAYS === undefined ? undefined : Number(config.REWARDS_HISTORY_DAYS);
    if (days !== undefined && !(Number.isInteger(days) && days >= 0))
      throw new CliError(
        `REWARDS_HISTORY_DAYS: a whole number of days, 0 (forever) or more, not ${JSON.stringify(config.REWARDS_HISTORY_DAYS)}`,
      );
    const startedAt = Date.now();
    const history = await startLocalHistory({
      config,
      code: options.function,
      settings: streamSettingsFrom(deployed, options),
      historyDays: days,
      failureQueueUrl: config.HISTORY_FAILURE_QUEUE_URL,
      checkpointFile: options.checkpoint,
      logger,
      onOutput: functionLinesToStderr(logger),
    });
    if (!config.HISTORY_FAILURE_QUEUE_URL)
      logger.warn(
        "HISTORY_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
      );
    logger.info(
      { table: config.TABLE_NAME },
      options.drain ? "writing the history until caught up" : "writing the history; Ctrl-C to stop",
    );
    const summary = await runUntilStopped(history, { drain: options.drain, startedAt, logger });
    if (options.json) printJson(summary);
    else
      printPairs({
        written: summary.written,
        "skipped (an older image after a revocation)": summary.skipped,
        "not written (retried)": summary.failed,
        invocations: summary.invocations,
        retries: summary.retries,
        "batches given up": summary.givenUp,
      });
  });
}
