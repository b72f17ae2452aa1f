// The announcer: the table's stream in, one reward.granted per award, reward.revoked per
// revocation and reward.achieved per achievement out. (`handler`
// itself is not re-exported: importing it builds a client from process.env. It is
// `@rewards/announcer/handler`.)
export type { AnnouncerDeps } from "./function/announcerDeps";
export { ANNOUNCER_FILTER_PATTERNS, isAnnouncerCandidate } from "./function/announcerFilter";
export { createAnnouncerDeps } from "./function/createAnnouncerDeps";
export { createHandler, type StreamBatchHandler } from "./function/createHandler";
export {
  type BatchCounts,
  type BatchResult,
  processBatch,
  type RecordFailure,
} from "./function/processBatch";
export { busEntry, type PublishDeps, publishGrants, type Unpublished } from "./function/publishGrants";
export { type ReadStreamRecord, readStreamRecord } from "./function/readStreamRecord";
