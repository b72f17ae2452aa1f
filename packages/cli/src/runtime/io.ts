import type { Logger } from "@rewards/core/aws";
import { type ProgressOptions, type ProgressReport, progressFor } from "./progress";

/**
 * Everything a command says, and the process signals it waits on: commands get an Io and
 * never touch process.stdout, process.stderr or the exit code themselves, so this file and
 * main.ts are the only ones that do (tests/seams.test.ts holds it), and a command's output
 * is a value a test can read (memoryIo in the CLI's tests).
 */
export interface Io {
  /** Results, on stdout; resolves once handed to the operating system, so what a command deletes next was shown first. */
  out(text: string): Promise<void>;
  /** Notices and warnings, on stderr (stdout stays parseable with --json). */
  err(text: string): void;
  /** A progress bar on a terminal; lines (linesEveryMs) or nothing otherwise; nothing when quiet. */
  progress(
    quiet: boolean | undefined,
    label: string,
    options?: Pick<ProgressOptions, "linesEveryMs">,
  ): ProgressReport;
  /** A logger writing JSON lines to stderr at `level` (the command's LOG_LEVEL); pino loads only then. */
  logger(name: string, level: string): Promise<Logger>;
  /** Resolves on the first SIGINT or SIGTERM (`onFirst` called then); a second one exits 130 at once. */
  untilSignal(onFirst?: (signal: NodeJS.Signals) => void): Promise<NodeJS.Signals>;
  /** Where `-` or no file argument reads from. */
  stdin: NodeJS.ReadableStream;
  /** How wide stdout is: the terminal's columns; else (a pipe, a file) COLUMNS, else 80. */
  columns: number;
}

function writeFlushed(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === "") return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

export const processIo: Io = {
  out: (text) => writeFlushed(process.stdout, text),
  err: (text) => void process.stderr.write(text),
  progress: (quiet, label, options = {}) =>
    progressFor(quiet, label, {
      ...options,
      terminal: process.stderr.isTTY === true,
      stream: process.stderr,
    }),
  logger: async (name, level) => {
    const [{ createLogger }, { pino }] = await Promise.all([import("@rewards/core/aws"), import("pino")]);
    return createLogger({ name, level, destination: pino.destination({ fd: 2, sync: true }) });
  },
  untilSignal: (onFirst) =>
    new Promise((resolve) => {
      let received = false;
      const handle = (signal: NodeJS.Signals) => {
        // The operator asked twice: stop now.
        if (received) process.exit(130);
        received = true;
        onFirst?.(signal);
        resolve(signal);
      };
      process.on("SIGINT", handle);
      process.on("SIGTERM", handle);
    }),
  stdin: process.stdin,
  columns: process.stdout.columns || Number(process.env.COLUMNS) || 80,
};
