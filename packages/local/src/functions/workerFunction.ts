import { LOCAL_STAGE, resources, workerEnvironment } from "@rewards/core/deploy";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";
import { type LocalFunctionOptions, startFunctionProcess } from "./functionProcess";

export type { FunctionCode } from "./functionProcess";

/** Its config: the shell's, for the table, DLQ, endpoints, region and credentials the function gets. */
export type WorkerFunctionOptions = LocalFunctionOptions<"TABLE_NAME">;

/** The worker function with the environment the deployment gives it (workerEnvironment, as infra/ calls it). */
export function startWorkerFunction(options: WorkerFunctionOptions): FunctionRuntime {
  const { config } = options;
  const deployed: Record<string, string> = workerEnvironment(
    { tableName: config.TABLE_NAME, dlqUrl: config.DLQ_URL ?? "" },
    {
      stage: LOCAL_STAGE,
      logLevel: config.LOG_LEVEL,
      concurrency: config.REWARDS_CONCURRENCY,
      dailyCap: config.REWARDS_DAILY_XP_CAP,
      rulesRefreshSeconds: config.REWARDS_RULES_REFRESH_SECONDS,
    },
  );
  if (!config.DLQ_URL) delete deployed.DLQ_URL;
  return startFunctionProcess({
    ...options,
    functionName: "rewards-worker-local",
    handlerModule: "@rewards/worker",
    memoryMb: resources.worker.memoryMb,
    deployed,
    endpoints: ["AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_DYNAMODB"],
  });
}
