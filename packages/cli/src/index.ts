/**
 * The CLI's building blocks, for what drives the system from outside a command (bench/,
 * tests/, the soak run): configuration from the environment, traffic, queue counts and
 * draining, the local functions, and reading the announcements. The commands are thin over
 * the same modules.
 */
export { type CliConfig, configFrom } from "./cliConfig";
export { checkHistory, type HistoryCheck } from "./demo/checkHistory";
export type { FunctionCode } from "./functions/functionProcess";
export { deployedAnnouncerSettings, startLocalAnnouncer } from "./functions/localAnnouncer";
export { deployedHistorySettings, startLocalHistory } from "./functions/localHistory";
export { type LocalReadApi, startLocalReadApi } from "./functions/localReadApi";
export { startLocalWorker } from "./functions/localWorker";
export { WorkerStats } from "./functions/workerStats";
export { checkGrants } from "./grants/checkGrants";
export { type AnnouncementShape, readAnnouncement } from "./grants/readAnnouncement";
export { grantsAmong, receiveGrants } from "./grants/receiveGrants";
export { createStreamsClient } from "./grants/tableStream";
export { waitUntilAnnounced } from "./grants/waitUntilAnnounced";
export { compareXp, readProfiles } from "./profiles";
export { queueCounts } from "./queues/queueCounts";
export { waitForDrain } from "./queues/waitForDrain";
export { revokeIntent } from "./revoke/revokeIntent";
export { replayStreamFailures } from "./streamFailures/replayStreamFailures";
export { announcerReplayTarget, historyReplayTarget } from "./streamFailures/replayTargets";
export { SCAN_PAGE_ITEMS, scanTable } from "./tableScan";
export { generateTraffic } from "./traffic/generateTraffic";
export { sendTraffic } from "./traffic/sendTraffic";
