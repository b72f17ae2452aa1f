/**
 * `@rewards/core/deploy`: the deployment's facts, for infra/ (the SST app) and for the local
 * stack that mirrors it: the resources and their settings (names, timeouts, memory, the
 * announcer's filter pattern), the environment each function gets, the configuration reader
 * the deploy settings use, and the event types a producer may send. Nothing here reaches AWS.
 */
export { ConfigError, dailyCapVariable, type Environment, readConfig } from "./config";
export { announcerEnvironment, workerEnvironment } from "./functionEnvironment";
export { resources } from "./resources";
export { eventTypes } from "./rules";
