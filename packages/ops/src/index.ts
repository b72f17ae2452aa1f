/**
 * `@rewards/ops`: operating a stage. Each operation takes SDK clients (and the names of the
 * table and queues) and returns data; none prints, reads the environment or exits. The
 * `rewards` command is a thin shell over it; the scenario and the tests use it as it is.
 */
export {
  type AwardsListing,
  type AwardsPage,
  awardPages,
  type ListedAward,
  listAwards,
} from "./awards/awardPages";
export { type AwardFilter, readAwardsCursor } from "./awards/awardsCursor";
export { awardLines, describeAwards } from "./awards/awardWords";
export { batchGetAll } from "./batchGetAll";
export {
  keptWeeks,
  type ReaderWeeks,
  type RepairWeeksOptions,
  repairWeeks,
  type WeekChange,
  type WeeksReport,
} from "./board/repairWeeks";
export { clientsFor } from "./clients";
export { type ExportFile, openExport } from "./dlq/exportFile";
export {
  describePurge,
  type ExportedMessage,
  type PurgeOptions,
  type PurgeReport,
  purgeMatching,
} from "./dlq/filteredPurge";
export { type ReplayOptions, replayDlq } from "./dlq/filteredReplay";
export { releaseReported } from "./dlq/heldMessages";
export { type DlqPeek, type DlqSample, type DlqStats, dlqStats, peekDlq, sampleDlq } from "./dlq/inspect";
export { replayNative } from "./dlq/nativeRedrive";
export { peekText, wrapText } from "./dlq/peekText";
export { purgeQueue } from "./dlq/purgeQueue";
export type { ReplayFilter } from "./dlq/replayFilter";
export { describeReplay, type ReplayReport } from "./dlq/replayReport";
export { type ReplayVerdict, shownVerdicts, VERDICT_WORDS } from "./dlq/replayVerdict";
export { announcerDepsFrom, historyDaysFrom, historyDepsFrom } from "./functionDeps";
export { type AnnouncementWords, announcementWords } from "./grants/announcementWords";
export type { AnnouncingKind } from "./grants/announcingItems";
export { awardedGuards } from "./grants/awardedGuards";
export { type AnnouncementShape, readAnnouncement } from "./grants/readAnnouncement";
export {
  achievedAmong,
  type GrantsBatch,
  grantsAmong,
  type ReceivedAnnouncement,
  receiveGrants,
} from "./grants/receiveGrants";
export { republishFromTable } from "./grants/republish";
export { intentKeyOfFields, KeyFieldsError } from "./guard/intentKeyOfFields";
export { readGuard } from "./guard/readGuard";
export { guardPages } from "./guardPages";
export { type RebuildReport, rebuildHistory, type UserRebuild } from "./history/rebuildHistory";
export { OperationError } from "./operationError";
export { compareXp, dayTotalsOver, type Mismatch, readProfiles } from "./profiles";
export { type ReaderState, readerState } from "./progress/readerState";
export { type ProgressReport, type ReaderRepair, repairProgress } from "./progress/repairProgress";
export { cloudwatchFor, oldestMessageAge, type QueueCounts, queueCounts } from "./queues/queueCounts";
export { waitForDrain, waitUntilDrained } from "./queues/waitForDrain";
export {
  type ReadersRepair,
  type RepairPhase,
  type RepairReadersOptions,
  repairReaders,
} from "./repair/repairReaders";
export { type ReaderItems, readReader, readTable, type TableSnapshot } from "./repair/tableSnapshot";
export { revokeIntent } from "./revoke/revokeIntent";
export { revokeLines } from "./revoke/revokeLines";
export { type PublishOptions, type PublishResult, publishRules } from "./rules/publishRules";
export { rollbackRulesTo } from "./rules/rollbackRulesTo";
export { rulesAgainstCurrent, rulesSummary } from "./rules/rulesAgainstCurrent";
export { describeRulesDiff, type RulesDifference, rulesDiff } from "./rules/rulesDiff";
export { type RulesFile, readRulesFile } from "./rules/rulesFile";
export {
  type CurrentRules,
  currentRulesOrFail,
  listRulesVersions,
  type PublishedVersion,
  readCurrentRules,
  readRulesVersion,
} from "./rules/rulesVersions";
export { describePublish, describeRulesHistory, rulesYaml } from "./rules/rulesWords";
export { type SchemaInForce, schemaInForce } from "./rules/schemaInForce";
export { type ConsumerLag, lagOfEntries, lagOfIteratorAge, type StreamConsumer } from "./status/consumerLag";
export { readStatus, type StatusReport, type StatusSources, statusSourcesFor } from "./status/readStatus";
export { statusPairs, verdictText } from "./status/statusInWords";
export type { Part, StatusVerdict } from "./status/statusVerdict";
export { isUnreplayable } from "./streamFailures/batchReplay";
export { failureRow, holdFailures } from "./streamFailures/heldFailures";
export { outcomeText, type ReplayWords, replayInWords } from "./streamFailures/replayInWords";
export {
  replayStreamFailures,
  type StreamReplayTarget,
  type UnreplayableRecord,
} from "./streamFailures/replayStreamFailures";
export { replayFailed, replayTally } from "./streamFailures/replayTally";
export { announcerReplayTarget, historyReplayTarget } from "./streamFailures/replayTargets";
export { SCAN_PAGE_ITEMS, scanTable } from "./tableScan";
export {
  type HistoryLag,
  historyLagLine,
  historyLagOf,
  standingHistoryAwards,
} from "./user/historyLag";
export { profileRepairAdvice } from "./user/profileRepairAdvice";
export { corruptProfileXp, repairProfileXp, storedProfile } from "./user/repairProfileXp";
export { unreadableItemAdvice } from "./user/unreadableItemAdvice";
