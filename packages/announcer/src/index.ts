// The announcer: the table's stream in, one reward.granted event per award out. (`handler`
// itself is not re-exported: importing it builds a client from process.env. It is
// `@rewards/announcer/handler`.)
export { type AnnounceCounts, type AnnounceFailure, type AnnounceResult, announce } from "./announce";
export type { AnnouncerDeps } from "./announcerDeps";
export { AWARD_FILTER_PATTERN, isAwardCandidate } from "./awardFilter";
export { createAnnouncer, type StreamBatchHandler } from "./createAnnouncer";
export { createAnnouncerDeps } from "./createAnnouncerDeps";
export { judgeRecord } from "./judgeRecord";
export { busEntry, type PublishDeps, publishGrants, type Unpublished } from "./publishGrants";
