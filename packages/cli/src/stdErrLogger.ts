import { createLogger, type Logger } from "@rewards/core/aws";
import { pino } from "pino";

/**
 * CLI logs go to stderr, so stdout carries only results (and stays parseable with --json).
 * `level` comes from the command's validated configuration (LOG_LEVEL).
 */
export function cliLogger(name: string, level: string): Logger {
  return createLogger({ name, level, destination: pino.destination({ fd: 2, sync: true }) });
}
