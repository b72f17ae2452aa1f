import {
  addStreamFunctionOptions,
  runEndNotices,
  runUntilStopped,
  type StreamFunctionCliOptions,
  streamSettingsFrom,
} from "../../options/streamFunctionOptions";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText, pairsText } from "../../runtime/text";

/** What to do for batches the stream no longer holds (its `replay` names it too). */
export const REBUILD_HINT =
  "rewrite their users' history from the guards with `rewards history rebuild --user <id>`";

export default defineCommand<StreamFunctionCliOptions>()({
  meta: {
    name: "history",
    description:
      "run the history's writer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one history item (docs/history.md); given-up batches go to HISTORY_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM. `failures` and `replay` operate those batches; `rebuild` rewrites users' history from the guards",
  },
  options: async (command) =>
    addStreamFunctionOptions(
      // `history replay --json` is the subcommand's --json, not the writer's.
      command.enablePositionalOptions(),
      (await import("@rewards/core/deploy")).resources.history,
      "history's writer",
      "HISTORY_CHECKPOINT_FILE",
    ),
  needs: ["TABLE_NAME"],
  async run({ options, config, io }) {
    const logger = await io.logger("rewards-history-source", config.LOG_LEVEL ?? "info");
    const [{ historyDaysFrom }, { deployedHistorySettings, functionLinesTo, startLocalHistory }] =
      await Promise.all([import("@rewards/ops"), import("@rewards/local")]);
    const days = historyDaysFrom(config);
    // Where `rewards dev` keeps it, unless told: `rewards status` reads it there.
    const checkpoint = options.checkpoint ?? config.HISTORY_CHECKPOINT_FILE;
    const startedAt = Date.now();
    const writer = await startLocalHistory({
      config,
      code: options.function,
      settings: streamSettingsFrom(deployedHistorySettings(), options),
      historyDays: days,
      failureQueueUrl: config.HISTORY_FAILURE_QUEUE_URL,
      checkpointFile: checkpoint,
      logger,
      onOutput: functionLinesTo(io.err, logger),
    });
    if (!config.HISTORY_FAILURE_QUEUE_URL)
      logger.warn(
        "HISTORY_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
      );
    logger.info(
      { table: config.TABLE_NAME },
      options.drain ? "writing the history until caught up" : "writing the history; Ctrl-C to stop",
    );
    const run = await runUntilStopped(writer, { drain: options.drain, startedAt, logger, io });
    const { summary } = run;
    return {
      ...(await runEndNotices(run, { ...options, checkpoint }, "history's writer", {
        variable: "HISTORY_FAILURE_QUEUE_URL",
        set: config.HISTORY_FAILURE_QUEUE_URL !== undefined,
        failures: "rewards history failures",
        replay: "rewards history replay",
        pastTheStream: REBUILD_HINT,
      })),
      out: options.json
        ? jsonText(summary)
        : pairsText({
            written: summary.written,
            "skipped (an older image after a revocation)": summary.skipped,
            "not written (retried)": summary.failed,
            invocations: summary.invocations,
            retries: summary.retries,
            "batches given up": summary.givenUp,
          }),
    };
  },
});
