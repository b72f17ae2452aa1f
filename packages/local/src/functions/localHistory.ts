import type { Logger } from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";
import { resources } from "@rewards/core/deploy";
import { isHistoryCandidate } from "@rewards/history";
import type { StreamSource } from "../eventSource/streamSource";
import { type FunctionCode, outputTo } from "./functionProcess";
import { startHistoryFunction } from "./historyFunction";
import { HistoryStats } from "./historyStats";
import { mappingSettingsOf, type StreamMappingSettings, startStreamFunction } from "./streamFunction";

/** The deployed mapping's settings (resources.history), for a local history writer. */
export function deployedHistorySettings(): StreamMappingSettings {
  return mappingSettingsOf(resources.history);
}

export interface LocalHistoryOptions {
  config: ToolConfig<"TABLE_NAME">;
  code: FunctionCode;
  settings: StreamMappingSettings;
  /** REWARDS_HISTORY_DAYS for the function; unset: the config's, else the default (400). */
  historyDays?: number | undefined;
  /** Given-up batches go here; unset: discarded, as on Lambda without a destination. */
  failureQueueUrl?: string | undefined;
  checkpointFile?: string | undefined;
  logger: Logger;
  onOutput?: (line: string) => void;
}

export interface LocalHistory {
  source: StreamSource;
  stats: HistoryStats;
  stop(): Promise<void>;
}

/**
 * What AWS runs for the history's writer, on this machine: the table's stream event source
 * with the deployed mapping's filter (the announcer's: guard INSERT/MODIFY) and settings,
 * invoking the function in processes of its own.
 */
export async function startLocalHistory(options: LocalHistoryOptions): Promise<LocalHistory> {
  const { config, settings } = options;
  const stats = new HistoryStats();
  const runtime = startHistoryFunction({
    code: options.code,
    config,
    timeoutMs: settings.timeoutMs,
    historyDays: options.historyDays,
    ...outputTo(stats, options.onOutput),
  });
  const { source, stop } = await startStreamFunction({
    runtime,
    config,
    settings,
    filter: isHistoryCandidate,
    failureQueueUrl: options.failureQueueUrl,
    checkpointFile: options.checkpointFile,
    logger: options.logger,
    onBatch: (summary) => stats.recordBatch(summary),
  });
  return { source, stats, stop };
}
