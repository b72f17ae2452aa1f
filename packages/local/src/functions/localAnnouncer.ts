import { isAnnouncerCandidate } from "@rewards/announcer";
import type { Logger } from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";
import { resources } from "@rewards/core/deploy";
import type { StreamSource } from "../eventSource/streamSource";
import { startAnnouncerFunction } from "./announcerFunction";
import { AnnouncerStats } from "./announcerStats";
import { type FunctionCode, outputTo } from "./functionProcess";
import { mappingSettingsOf, type StreamMappingSettings, startStreamFunction } from "./streamFunction";

export type AnnouncerSettings = StreamMappingSettings;

/** The deployed mapping's settings (resources.announcer), for a local announcer. */
export function deployedAnnouncerSettings(): AnnouncerSettings {
  return mappingSettingsOf(resources.announcer);
}

export interface LocalAnnouncerOptions {
  /** The table whose stream is read, the bus, and the failure queue (unset: given-up batches are discarded, as on Lambda). */
  config: ToolConfig<"TABLE_NAME" | "BUS_NAME">;
  code: FunctionCode;
  settings: AnnouncerSettings;
  /** Where the stream position is kept between runs; unset: in memory, from `startingPosition` each start. */
  checkpointFile?: string | undefined;
  logger: Logger;
  /** Every line the function writes (its logs and EMF lines); dropped when absent. */
  onOutput?: (line: string) => void;
}

export interface LocalAnnouncer {
  source: StreamSource;
  stats: AnnouncerStats;
  stop(): Promise<void>;
}

/**
 * What AWS runs for the announcer, on this machine: the table's stream event source (Lambda's
 * rules for streams, the deployed mapping's filter and settings) invoking the announcer
 * function in processes of its own, given-up batches to the failure queue.
 */
export async function startLocalAnnouncer(options: LocalAnnouncerOptions): Promise<LocalAnnouncer> {
  const { config, settings } = options;
  const stats = new AnnouncerStats();
  const runtime = startAnnouncerFunction({
    code: options.code,
    config,
    timeoutMs: settings.timeoutMs,
    ...outputTo(stats, options.onOutput),
  });
  const { source, stop } = await startStreamFunction({
    runtime,
    config,
    settings,
    filter: isAnnouncerCandidate,
    failureQueueUrl: config.ANNOUNCER_FAILURE_QUEUE_URL,
    checkpointFile: options.checkpointFile,
    logger: options.logger,
    onBatch: (summary) => stats.recordBatch(summary),
  });
  return { source, stats, stop };
}
