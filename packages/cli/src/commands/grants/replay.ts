import { replayCommand } from "../streamFailureVerbs";

export default replayCommand({
  queue: "ANNOUNCER_FAILURE_QUEUE_URL",
  replayNeeds: "BUS_NAME",
  target: async (config, io) => {
    const { announcerDepsFrom, announcerReplayTarget } = await import("@rewards/ops");
    const logger = await io.logger("rewards-announcer", config.LOG_LEVEL ?? "warn");
    return announcerReplayTarget(
      announcerDepsFrom({ ...config, BUS_NAME: config.BUS_NAME ?? "(dry run)" }, logger),
    );
  },
  replayCommand: "rewards grants replay",
  description:
    "announce the awards of given-up batches again: read each batch back from the stream (within its 24 hours), publish with the announcer's code, delete the failure record once all are published (harmless to repeat: each award keeps its id)",
  dryRun: "publish nothing; say how many awards each batch holds",
  words: {
    done: "published",
    replayed: "republished",
    wouldReplay: "would republish",
    notAllDone: "not all published",
  },
  pastTheStream:
    "Batches no longer in the stream: announce their awards again from the table with `rewards grants republish --since <their first arrival>`.",
});
