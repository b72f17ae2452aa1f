import { replayCommand } from "../streamFailureVerbs";
import { REBUILD_HINT } from "./history";

export default replayCommand({
  queue: "HISTORY_FAILURE_QUEUE_URL",
  replayNeeds: "TABLE_NAME",
  target: async (config, io) => {
    const { historyDepsFrom, historyReplayTarget } = await import("@rewards/ops");
    const logger = await io.logger("rewards-history", config.LOG_LEVEL ?? "warn");
    return historyReplayTarget(
      historyDepsFrom({ ...config, TABLE_NAME: config.TABLE_NAME ?? "(dry run)" }, logger),
    );
  },
  replayCommand: "rewards history replay",
  description:
    "write the history items of given-up batches: read each batch back from the stream (within its 24 hours) to its last record, run the history writer's own code on its awards and revocations, delete the failure record once every item is written (harmless to repeat: each record writes the same item)",
  dryRun: "write nothing; say how many awards each batch holds",
  words: {
    done: "written",
    replayed: "written",
    wouldReplay: "would write",
    notAllDone: "not all written",
  },
  pastTheStream: `Batches no longer in the stream: ${REBUILD_HINT} (or \`--all\`).`,
});
