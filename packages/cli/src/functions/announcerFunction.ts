import { announcerEnvironment, resources } from "@rewards/core";
import type { FunctionRuntime } from "@rewards/local";
import type { CliConfig } from "../cliConfig";
import { type FunctionCode, startFunctionProcess } from "./functionProcess";

export interface AnnouncerFunctionOptions {
  code: FunctionCode;
  /** The shell's configuration: the bus, endpoints, region and credentials the function gets. */
  config: CliConfig<"BUS_NAME">;
  timeoutMs: number;
  onStdout?: (line: string) => void;
  onStderr?: (line: string) => void;
}

/** The announcer function with the environment the deployment gives it (announcerEnvironment, as infra/ calls it). */
export function startAnnouncerFunction(options: AnnouncerFunctionOptions): FunctionRuntime {
  const { config } = options;
  return startFunctionProcess({
    ...options,
    functionName: "rewards-announcer-local",
    handlerModule: "@rewards/announcer",
    memoryMb: resources.announcer.memoryMb,
    deployed: announcerEnvironment({ busName: config.BUS_NAME }, { logLevel: config.LOG_LEVEL }),
    endpoints: ["AWS_ENDPOINT_URL_EVENTBRIDGE"],
  });
}
