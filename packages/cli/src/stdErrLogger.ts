import { createLogger, type Logger } from "@rewards/core";
import { pino } from "pino";

/** CLI logs go to stderr, so stdout carries only results (and stays parseable with --json). */
export function cliLogger(name: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return createLogger({ name, level, destination: pino.destination({ fd: 2, sync: true }) });
}
