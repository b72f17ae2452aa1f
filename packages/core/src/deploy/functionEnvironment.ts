import { DEFAULT_BOARD_SHARDS } from "../domain/table/tableLayout";
import { DEFAULT_RULES_REFRESH_SECONDS } from "./config";
import { resources } from "./resources";

/**
 * What every function's environment carries whatever it does: REWARDS_STAGE, the stage its
 * metrics are emitted for (their `stage` dimension), so each stage's alarms and dashboard
 * count that stage's metrics alone. Required of every caller: the deploy says `$app.stage`,
 * the local runtime LOCAL_STAGE.
 */
export interface StageSetting {
  stage: string;
}

/**
 * The variables the deployment gives the worker function: infra/ sets exactly these on
 * AWS, and the local function runtime sets them too, so what runs locally sees what
 * deploys. Generic over the value type: on AWS the names are deploy-time outputs.
 */
export function workerEnvironment<T>(
  names: { tableName: T; dlqUrl: T },
  settings: StageSetting & {
    concurrency?: number | string | undefined;
    logLevel?: string | undefined;
    /** REWARDS_DAILY_XP_CAP; unset: no cap, and the variable is not set at all. */
    dailyCap?: number | undefined;
  } & RulesRefreshSetting,
): {
  TABLE_NAME: T;
  DLQ_URL: T;
  REWARDS_STAGE: string;
  REWARDS_CONCURRENCY: string;
  LOG_LEVEL: string;
  REWARDS_RULES_REFRESH_SECONDS: string;
  REWARDS_DAILY_XP_CAP?: string;
} {
  return {
    TABLE_NAME: names.tableName,
    DLQ_URL: names.dlqUrl,
    REWARDS_STAGE: settings.stage,
    REWARDS_CONCURRENCY: String(settings.concurrency ?? resources.worker.concurrency),
    LOG_LEVEL: settings.logLevel ?? "info",
    REWARDS_RULES_REFRESH_SECONDS: rulesRefreshOf(settings),
    ...(settings.dailyCap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(settings.dailyCap) }),
  };
}

/** The variables the deployment gives the announcer function (infra/ and the local runtime alike). */
export function announcerEnvironment<T>(
  names: { busName: T },
  settings: StageSetting & { logLevel?: string | undefined },
): { BUS_NAME: T; REWARDS_STAGE: string; LOG_LEVEL: string } {
  return { BUS_NAME: names.busName, REWARDS_STAGE: settings.stage, LOG_LEVEL: settings.logLevel ?? "info" };
}

/**
 * The variables the deployment gives the history's writer (infra/ and the local runtime alike).
 * REWARDS_HISTORY_DAYS: how long a history item is kept, in days; 0 keeps it forever.
 */
export function historyEnvironment<T>(
  names: { tableName: T },
  settings: StageSetting & {
    historyDays?: number | string | undefined;
    boardWeeks?: number | undefined;
    boardShards?: number | undefined;
    logLevel?: string | undefined;
  } & RulesRefreshSetting,
): {
  TABLE_NAME: T;
  REWARDS_STAGE: string;
  REWARDS_HISTORY_DAYS: string;
  REWARDS_BOARD_WEEKS: string;
  REWARDS_BOARD_SHARDS: string;
  REWARDS_RULES_REFRESH_SECONDS: string;
  LOG_LEVEL: string;
} {
  return {
    TABLE_NAME: names.tableName,
    REWARDS_STAGE: settings.stage,
    REWARDS_HISTORY_DAYS: String(settings.historyDays ?? DEFAULT_HISTORY_DAYS),
    REWARDS_BOARD_WEEKS: String(settings.boardWeeks ?? DEFAULT_BOARD_WEEKS),
    REWARDS_BOARD_SHARDS: String(settings.boardShards ?? DEFAULT_BOARD_SHARDS),
    REWARDS_RULES_REFRESH_SECONDS: rulesRefreshOf(settings),
    LOG_LEVEL: settings.logLevel ?? "info",
  };
}

/**
 * The variables the deployment gives the read API (infra/ and the local runtime alike): the
 * daily cap is the worker's, from the same stage setting, so `today` is read where the worker
 * writes it.
 */
export function readApiEnvironment<T>(
  names: { tableName: T },
  settings: StageSetting & {
    logLevel?: string | undefined;
    dailyCap?: number | undefined;
    boardShards?: number | undefined;
  } & RulesRefreshSetting,
): {
  TABLE_NAME: T;
  REWARDS_STAGE: string;
  LOG_LEVEL: string;
  REWARDS_BOARD_SHARDS: string;
  REWARDS_RULES_REFRESH_SECONDS: string;
  REWARDS_DAILY_XP_CAP?: string;
} {
  return {
    TABLE_NAME: names.tableName,
    REWARDS_STAGE: settings.stage,
    LOG_LEVEL: settings.logLevel ?? "info",
    REWARDS_RULES_REFRESH_SECONDS: rulesRefreshOf(settings),
    // The writer's shard count: a reader asking fewer shards misses entries.
    REWARDS_BOARD_SHARDS: String(settings.boardShards ?? DEFAULT_BOARD_SHARDS),
    ...(settings.dailyCap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(settings.dailyCap) }),
  };
}

/** A function that reads the rules' `CURRENT` (docs/rules.md#at-run-time). */
export interface RulesRefreshSetting {
  /** REWARDS_RULES_REFRESH_SECONDS, the stage's; unset: 30. */
  rulesRefreshSeconds?: number | string | undefined;
}

const rulesRefreshOf = (settings: RulesRefreshSetting): string =>
  String(settings.rulesRefreshSeconds ?? DEFAULT_RULES_REFRESH_SECONDS);

export { DEFAULT_BOARD_SHARDS };

/** REWARDS_BOARD_WEEKS when unset: weeks a week's board is kept after it ends (docs/board.md#retention). */
export const DEFAULT_BOARD_WEEKS = 8;

/** REWARDS_HISTORY_DAYS when unset (docs/history.md#retention). */
export const DEFAULT_HISTORY_DAYS = 400;
