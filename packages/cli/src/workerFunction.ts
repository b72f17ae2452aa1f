import { fileURLToPath } from "node:url";
import { resources, workerEnvironment } from "@rewards/core";
import { createFunctionRuntime, type FunctionRuntime, lambdaEnvironment } from "@rewards/local";
import type { CliConfig } from "./cliConfig";

/** Which code of the worker function runs: its TypeScript source, or the deployable bundle. */
export type FunctionCode = "source" | "artifact";

const ARTIFACT = fileURLToPath(new URL("../../worker/dist/handler.mjs", import.meta.url));

/** The worker's entry point: the source through tsx, or what `npm run build:function` wrote. */
function workerEntry(code: FunctionCode): string {
  return code === "artifact" ? ARTIFACT : fileURLToPath(import.meta.resolve("@rewards/worker/handler"));
}

export interface WorkerFunctionOptions {
  code: FunctionCode;
  /** The shell's configuration: the table, DLQ, endpoints, region and credentials the function gets. */
  config: CliConfig<"TABLE_NAME">;
  timeoutMs: number;
  onStdout?: (line: string) => void;
  onStderr?: (line: string) => void;
}

/**
 * The worker function as Lambda runs it (see createFunctionRuntime), with the environment
 * the deployment gives it (workerEnvironment, the same call infra/ makes), the variables
 * Lambda's runtime sets, and the local endpoints. Nothing else of this shell reaches it.
 */
export function startWorkerFunction(options: WorkerFunctionOptions): FunctionRuntime {
  const { config } = options;
  const deployed: Record<string, string> = workerEnvironment(
    { tableName: config.TABLE_NAME, dlqUrl: config.DLQ_URL ?? "" },
    { logLevel: config.LOG_LEVEL, concurrency: config.REWARDS_CONCURRENCY },
  );
  if (!config.DLQ_URL) delete deployed.DLQ_URL;
  const credentials =
    config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
      ? {
          accessKeyId: config.AWS_ACCESS_KEY_ID,
          secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
          sessionToken: config.AWS_SESSION_TOKEN,
        }
      : undefined;
  const functionName = "rewards-worker-local";
  return createFunctionRuntime({
    entry: workerEntry(options.code),
    functionName,
    memoryMb: resources.worker.memoryMb,
    timeoutMs: options.timeoutMs,
    environment: {
      ...lambdaEnvironment({
        functionName,
        memoryMb: resources.worker.memoryMb,
        region: config.AWS_REGION,
        handler: "handler.handler",
        credentials,
      }),
      ...deployed,
      // Locally the services are the local stack's (on AWS, the SDK's default endpoints).
      ...(config.AWS_ENDPOINT_URL_SQS ? { AWS_ENDPOINT_URL_SQS: config.AWS_ENDPOINT_URL_SQS } : {}),
      ...(config.AWS_ENDPOINT_URL_DYNAMODB
        ? { AWS_ENDPOINT_URL_DYNAMODB: config.AWS_ENDPOINT_URL_DYNAMODB }
        : {}),
      // Lambda runs Node 22, where the SDK has nothing to warn about.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    ...(options.onStdout ? { onStdout: options.onStdout } : {}),
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
  });
}
