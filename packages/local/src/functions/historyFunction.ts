import { historyEnvironment, LOCAL_STAGE, resources } from "@rewards/core/deploy";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";
import { type LocalFunctionOptions, startFunctionProcess } from "./functionProcess";

/** Its config: the shell's, for the table, endpoints, region and credentials the function gets. */
export type HistoryFunctionOptions = LocalFunctionOptions<"TABLE_NAME"> & {
  /** REWARDS_HISTORY_DAYS; unset: the config's (the shell's), else the function's default. */
  historyDays?: number | undefined;
};

/** The history's writer with the environment the deployment gives it (historyEnvironment, as infra/ calls it). */
export function startHistoryFunction(options: HistoryFunctionOptions): FunctionRuntime {
  const { config } = options;
  return startFunctionProcess({
    ...options,
    functionName: "rewards-history-local",
    handlerModule: "@rewards/history",
    memoryMb: resources.history.memoryMb,
    deployed: historyEnvironment(
      { tableName: config.TABLE_NAME },
      {
        stage: LOCAL_STAGE,
        historyDays: options.historyDays ?? config.REWARDS_HISTORY_DAYS,
        boardShards: config.REWARDS_BOARD_SHARDS,
        boardWeeks: config.REWARDS_BOARD_WEEKS,
        logLevel: config.LOG_LEVEL,
        rulesRefreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
      },
    ),
    endpoints: ["AWS_ENDPOINT_URL_DYNAMODB"],
  });
}
