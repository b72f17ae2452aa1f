import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; stdout by default (what Lambda ships to CloudWatch). */
  destination?: DestinationStream;
}

/**
 * JSON lines via pino. Event bodies are never logged at `info`: they carry user ids and
 * whatever producers add, and a batch line per invocation is what operators read.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      name: options.name ?? "rewards",
      level: options.level ?? "info",
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
