import { announcerEnvironment, LOCAL_STAGE, resources } from "@rewards/core/deploy";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";
import { type LocalFunctionOptions, startFunctionProcess } from "./functionProcess";

/** Its config: the shell's, for the bus, endpoints, region and credentials the function gets. */
export type AnnouncerFunctionOptions = LocalFunctionOptions<"BUS_NAME">;

/** The announcer function with the environment the deployment gives it (announcerEnvironment, as infra/ calls it). */
export function startAnnouncerFunction(options: AnnouncerFunctionOptions): FunctionRuntime {
  const { config } = options;
  return startFunctionProcess({
    ...options,
    functionName: "rewards-announcer-local",
    handlerModule: "@rewards/announcer",
    memoryMb: resources.announcer.memoryMb,
    deployed: announcerEnvironment(
      { busName: config.BUS_NAME },
      { stage: LOCAL_STAGE, logLevel: config.LOG_LEVEL },
    ),
    endpoints: ["AWS_ENDPOINT_URL_EVENTBRIDGE"],
  });
}
