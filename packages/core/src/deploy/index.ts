/**
 * `@rewards/core/deploy`: the deployment's facts, for infra/ (the SST app) and for the local
 * stack that mirrors it: the resources and their settings (names, timeouts, memory, the
 * announcer's filter pattern), the environment each function gets and how a function reads
 * it, and the event types a producer may send. Nothing here reaches AWS.
 */

export { eventTypes } from "../domain/rules/rules";
// The rules' partition (docs/rules.md#who-may-publish): the functions' read grant names it.
export { RULES_PK } from "../domain/table/tableLayout";
export {
  boardShardsVariable,
  boardWeeksVariable,
  ConfigError,
  type ConfigWith,
  DEFAULT_RULES_REFRESH_SECONDS,
  dailyCapVariable,
  type Environment,
  functionLogLevel,
  functionLogVariables,
  LOCAL_STAGE,
  type LogLevel,
  logLevelSchema,
  readConfig,
  requiredText,
  rulesRefreshVariable,
  sdkVariables,
  stageVariable,
  urlVariable,
} from "./config";
// What the functions emit (EMF), for the dashboard: the emitter's own list, with no SDK client behind it.
export {
  EMITTED_METRICS,
  METRICS_DIMENSION,
  METRICS_DIMENSIONS,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
} from "./emittedMetrics";
export {
  announcerEnvironment,
  DEFAULT_BOARD_SHARDS,
  DEFAULT_BOARD_WEEKS,
  DEFAULT_HISTORY_DAYS,
  historyEnvironment,
  readApiEnvironment,
  workerEnvironment,
} from "./functionEnvironment";
export { resources } from "./resources";
export {
  LOCAL_CREDENTIALS,
  LOCAL_ENDPOINT_VARIABLES,
  LOCAL_ONLY_VARIABLES,
  type LocalEndpointVariable,
  type StageEnvironment,
  type StageOutputs,
  stageEnvironment,
  stageOutputsSchema,
} from "./stageEnvironment";
export { type ToolConfig, toolConfigFrom, toolConfigSchema } from "./toolConfig";
