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
      level: options.level ?? "info",
      // Only the name on every line (pino's default base adds pid and hostname, and a
      // `name` option is dropped when `base` is null).
      base: { name: options.name ?? "rewards" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
