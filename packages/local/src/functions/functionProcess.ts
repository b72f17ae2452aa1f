import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolConfig } from "@rewards/core/deploy";
import { createFunctionRuntime, type FunctionRuntime } from "../functionRuntime/functionRuntime";
import { lambdaEnvironment } from "../functionRuntime/lambdaEnvironment";
import { packageRoot } from "../packageRoot";

/** Which code of a function runs: its TypeScript source, or the deployable bundle (npm run build:function). */
export type FunctionCode = "source" | "artifact";

/**
 * How a command starts one of the functions locally: which code, the shell's configuration
 * (with the variables `Needs` set: what the function gets of it is the function's own
 * business), its timeout, and where its output lines go.
 */
export interface LocalFunctionOptions<Needs extends keyof ToolConfig<never> = never> {
  code: FunctionCode;
  config: ToolConfig<Needs>;
  timeoutMs: number;
  onStdout?: (line: string) => void;
  onStderr?: (line: string) => void;
}

export interface FunctionProcessOptions {
  functionName: string;
  /** The package whose `./handler` is the source, and whose dist/handler.mjs is the bundle `npm run build:function` writes. */
  handlerModule: `@rewards/${string}`;
  code: FunctionCode;
  memoryMb: number;
  timeoutMs: number;
  /** The shell's configuration: the region, credentials and local endpoints the function gets. */
  config: ToolConfig;
  /** The variables the deployment gives this function (the same call infra/ makes). */
  deployed: Record<string, string>;
  /** Which of the SDK's endpoint variables this function's clients read. */
  endpoints: ReadonlyArray<keyof ToolConfig & `AWS_ENDPOINT_URL_${string}`>;
  onStdout?: (line: string) => void;
  onStderr?: (line: string) => void;
}

/**
 * A function as Lambda runs it (see createFunctionRuntime): its deployed variables, the ones
 * Lambda's runtime sets, and the local endpoints. Nothing else of this shell reaches it.
 */
export function startFunctionProcess(options: FunctionProcessOptions): FunctionRuntime {
  const { config, functionName, memoryMb } = options;
  const credentials =
    config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
      ? {
          accessKeyId: config.AWS_ACCESS_KEY_ID,
          secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
          sessionToken: config.AWS_SESSION_TOKEN,
        }
      : undefined;
  // Locally the services are the local stack's (on AWS, the SDK's default endpoints).
  const endpoints = Object.fromEntries(
    options.endpoints.flatMap((name) => (config[name] ? [[name, String(config[name])]] : [])),
  );
  return createFunctionRuntime({
    entry:
      options.code === "artifact"
        ? join(packageRoot(options.handlerModule), "dist", "handler.mjs")
        : fileURLToPath(import.meta.resolve(`${options.handlerModule}/handler`)),
    functionName,
    memoryMb,
    timeoutMs: options.timeoutMs,
    environment: {
      ...lambdaEnvironment({
        functionName,
        memoryMb,
        region: config.AWS_REGION,
        handler: "handler.handler",
        credentials,
      }),
      ...options.deployed,
      ...endpoints,
    },
    ...(options.onStdout ? { onStdout: options.onStdout } : {}),
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
  });
}

/** The function's output to a stats object (its EMF lines) and, every line, to `onOutput`. */
export function outputTo(stats: { recordOutput(line: string): boolean }, onOutput?: (line: string) => void) {
  return {
    onStdout: (line: string) => {
      stats.recordOutput(line);
      onOutput?.(line);
    },
    onStderr: (line: string) => onOutput?.(line),
  };
}

/**
 * For a command that runs a function in the foreground: the function's log lines are logs,
 * on stderr like the command's own; its EMF lines too, but only at debug.
 */
export function functionLinesTo(
  write: (text: string) => void,
  logger: { isLevelEnabled(level: string): boolean },
): (line: string) => void {
  return (line) => {
    if (!line.startsWith('{"_aws"') || logger.isLevelEnabled("debug")) write(`${line}\n`);
  };
}
