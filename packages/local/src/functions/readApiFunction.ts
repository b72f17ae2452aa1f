import { LOCAL_STAGE, readApiEnvironment, resources } from "@rewards/core/deploy";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";
import { type LocalFunctionOptions, startFunctionProcess } from "./functionProcess";

/** The read API with the environment the deployment gives it (readApiEnvironment, as infra/ calls it). */
export function startReadApiFunction(options: LocalFunctionOptions<"TABLE_NAME">): FunctionRuntime {
  const { config } = options;
  return startFunctionProcess({
    ...options,
    functionName: "rewards-read-api-local",
    handlerModule: "@rewards/read-api",
    memoryMb: resources.readApi.memoryMb,
    deployed: readApiEnvironment(
      { tableName: config.TABLE_NAME },
      {
        stage: LOCAL_STAGE,
        logLevel: config.LOG_LEVEL,
        dailyCap: config.REWARDS_DAILY_XP_CAP,
        // The shell's, as the local history writer and `rewards board` take it: one shard count for all.
        boardShards: config.REWARDS_BOARD_SHARDS,
        rulesRefreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
      },
    ),
    endpoints: ["AWS_ENDPOINT_URL_DYNAMODB"],
  });
}
