import type { Logger } from "@rewards/core/aws";
import type { StreamSource } from "@rewards/local";
import { type Command, Option } from "commander";
import type { FunctionCode } from "../functions/functionProcess";
import type { StreamMappingSettings } from "../functions/streamFunction";
import { waitUntilAnnounced } from "../grants/waitUntilAnnounced";
import { integer } from "../options";
import { untilSignal } from "../untilSignal";

/** The options of a command that runs a function on the table's stream (`announcer`, `history`). */
export interface StreamFunctionCliOptions {
  function: FunctionCode;
  batchSize: number;
  maxRetries: number;
  timeout: number;
  from: "trim-horizon" | "latest";
  checkpoint?: string;
  drain?: boolean;
  json?: boolean;
}

/** Adds the stream mapping's options, with the deployed mapping's settings as defaults. */
export function addStreamFunctionOptions(
  command: Command,
  deployed: StreamMappingSettings,
  what: string,
): Command {
  return command
    .option("--batch-size <n>", "records per invocation", integer(1, 10_000), deployed.batchSize)
    .option(
      "--max-retries <n>",
      "retries of a failing batch before it is given up (-1: until the records expire)",
      integer(-1, 10_000),
      deployed.maximumRetryAttempts,
    )
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), deployed.timeoutMs / 1000)
    .addOption(
      new Option(
        "--from <position>",
        "where to start without a checkpoint: the stream's oldest record, or new ones only",
      )
        .choices(["trim-horizon", "latest"])
        .default("trim-horizon"),
    )
    .option(
      "--checkpoint <file>",
      `keep the stream position in this file, so a restarted ${what} resumes where the last one stopped`,
    )
    .addOption(
      new Option("--function <code>", "the function's code: its TypeScript source, or the deployable bundle")
        .choices(["source", "artifact"])
        .default("source"),
    )
    .option(
      "--drain",
      `stop once everything the stream held at the start is through the ${what}, and say what happened`,
    )
    .option("--json", "print the final statistics as JSON");
}

/** The mapping's settings: the deployed ones, with the command line's. */
export function streamSettingsFrom(
  deployed: StreamMappingSettings,
  options: StreamFunctionCliOptions,
): StreamMappingSettings {
  return {
    ...deployed,
    batchSize: options.batchSize,
    maximumRetryAttempts: options.maxRetries,
    timeoutMs: options.timeout * 1000,
    startingPosition: options.from === "latest" ? "LATEST" : "TRIM_HORIZON",
  };
}

/**
 * Runs a local stream function until SIGINT/SIGTERM, the source's end, or — with `--drain` —
 * until everything the stream held at `startedAt` went through it; then stops it (the
 * invocation in flight finishes) and answers its statistics with the batches given up.
 */
export async function runUntilStopped<Outcomes extends Record<string, number>>(
  fn: {
    source: StreamSource;
    stats: { outcomes: Outcomes; invocations: number; records: number; retries: number };
    stop(): Promise<void>;
  },
  options: { drain?: boolean | undefined; startedAt: number; logger: Logger },
): Promise<Outcomes & { invocations: number; records: number; retries: number; givenUp: number }> {
  const caughtUp = options.drain
    ? waitUntilAnnounced(fn.source, options.startedAt, Number.POSITIVE_INFINITY)
    : new Promise<never>(() => {});
  await Promise.race([
    untilSignal((signal) => options.logger.info({ signal }, "stopping: finishing the invocation in flight")),
    fn.source.done,
    caughtUp,
  ]);
  await fn.stop();
  return {
    ...fn.stats.outcomes,
    invocations: fn.stats.invocations,
    records: fn.stats.records,
    retries: fn.stats.retries,
    givenUp: fn.source.givenUp,
  };
}
