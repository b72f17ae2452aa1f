import { type AnnouncerDeps, createAnnouncerDeps } from "@rewards/announcer";
import type { Logger } from "@rewards/core/aws";
import type { Environment, ToolConfig } from "@rewards/core/deploy";
import { createHistoryDeps, type HistoryDeps } from "@rewards/history";
import { OperationError } from "./operationError";

/** The configuration's set variables, as a function's environment. */
function environmentOf(config: ToolConfig): Environment {
  return Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/**
 * The announcer's own dependencies, from the tools' configuration (BUS_NAME and the SDK's
 * variables), logging to `logger` (its level: LOG_LEVEL, warn by default).
 */
export function announcerDepsFrom(config: ToolConfig<"BUS_NAME">, logger: Logger): AnnouncerDeps {
  return {
    ...createAnnouncerDeps({ ...environmentOf(config), LOG_LEVEL: config.LOG_LEVEL ?? "warn" }),
    logger,
  };
}

/** REWARDS_HISTORY_DAYS as the history's writer reads it, checked before anything starts. */
export function historyDaysFrom(config: ToolConfig): number | undefined {
  const days = config.REWARDS_HISTORY_DAYS === undefined ? undefined : Number(config.REWARDS_HISTORY_DAYS);
  if (days !== undefined && !(Number.isInteger(days) && days >= 0))
    throw new OperationError(
      `REWARDS_HISTORY_DAYS: a whole number of days, 0 (forever) or more, not ${JSON.stringify(config.REWARDS_HISTORY_DAYS)}`,
    );
  return days;
}

/**
 * The history writer's own dependencies, from the tools' configuration (TABLE_NAME,
 * REWARDS_HISTORY_DAYS, checked first, and the SDK's variables), logging to `logger` (its
 * level: LOG_LEVEL, warn by default).
 */
export function historyDepsFrom(config: ToolConfig<"TABLE_NAME">, logger: Logger): HistoryDeps {
  historyDaysFrom(config);
  return {
    ...createHistoryDeps({ ...environmentOf(config), LOG_LEVEL: config.LOG_LEVEL ?? "warn" }),
    logger,
  };
}
