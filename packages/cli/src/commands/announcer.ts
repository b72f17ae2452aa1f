import {
  addStreamFunctionOptions,
  runEndNotices,
  runUntilStopped,
  type StreamFunctionCliOptions,
  streamSettingsFrom,
} from "../options/streamFunctionOptions";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText } from "../runtime/text";

export default defineCommand<StreamFunctionCliOptions>()({
  meta: {
    name: "announcer",
    description:
      "run the announcer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one reward.granted on BUS_NAME; given-up batches go to ANNOUNCER_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM",
  },
  options: async (command) =>
    addStreamFunctionOptions(
      command,
      (await import("@rewards/core/deploy")).resources.announcer,
      "announcer",
      "ANNOUNCER_CHECKPOINT_FILE",
    ),
  needs: ["TABLE_NAME", "BUS_NAME"],
  async run({ options, config, io }) {
    const logger = await io.logger("rewards-announcer-source", config.LOG_LEVEL ?? "info");
    const { deployedAnnouncerSettings, functionLinesTo, startLocalAnnouncer } = await import(
      "@rewards/local"
    );
    // Where `rewards dev` keeps it, unless told: `rewards status` reads it there.
    const checkpoint = options.checkpoint ?? config.ANNOUNCER_CHECKPOINT_FILE;
    const startedAt = Date.now();
    const announcer = await startLocalAnnouncer({
      config,
      code: options.function,
      settings: streamSettingsFrom(deployedAnnouncerSettings(), options),
      checkpointFile: checkpoint,
      logger,
      onOutput: functionLinesTo(io.err, logger),
    });
    if (!config.ANNOUNCER_FAILURE_QUEUE_URL)
      logger.warn(
        "ANNOUNCER_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
      );
    logger.info(
      { table: config.TABLE_NAME, bus: config.BUS_NAME },
      options.drain ? "announcing until caught up" : "announcing; Ctrl-C to stop",
    );
    const run = await runUntilStopped(announcer, { drain: options.drain, startedAt, logger, io });
    const { summary } = run;
    return {
      ...(await runEndNotices(run, { ...options, checkpoint }, "announcer", {
        variable: "ANNOUNCER_FAILURE_QUEUE_URL",
        set: config.ANNOUNCER_FAILURE_QUEUE_URL !== undefined,
        failures: "rewards grants failures",
        replay: "rewards grants replay",
        pastTheStream:
          "announce their awards again from the table with `rewards grants republish --since <when>`",
      })),
      out: options.json
        ? jsonText(summary)
        : pairsText({
            announced: summary.announced,
            "not announced (retried)": summary.failed,
            invocations: summary.invocations,
            retries: summary.retries,
            "batches given up": summary.givenUp,
          }),
    };
  },
});
