import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "@rewards/core/aws";
import type { resources } from "@rewards/core/deploy";
import type { FunctionCode, StreamMappingSettings, StreamSource } from "@rewards/local";
import { type Command, Option } from "commander";
import type { CommandResult } from "../runtime/defineCommand";
import type { Io } from "../runtime/io";
import type { GivenUpDestination } from "../text/givenUpNotice";
import { unfinishedDrainNotice } from "../text/unfinishedDrainNotice";
import { integer } from "./parsers";

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

/** A deployed stream mapping (resources.announcer, resources.history): what its options default to. */
type DeployedMapping = Pick<
  typeof resources.announcer | typeof resources.history,
  "batchSize" | "maximumRetryAttempts" | "timeoutSeconds"
>;

/** Adds the stream mapping's options, with the deployed mapping's settings as defaults. */
export function addStreamFunctionOptions(
  command: Command,
  deployed: DeployedMapping,
  what: string,
  checkpointVariable: string,
): Command {
  return command
    .option("--batch-size <n>", "records per invocation", integer(1, 10_000), deployed.batchSize)
    .option(
      "--max-retries <n>",
      "retries of a failing batch before it is given up (-1: until the records expire)",
      integer(-1, 10_000),
      deployed.maximumRetryAttempts,
    )
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), deployed.timeoutSeconds)
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
      `keep the stream position in this file, so a restarted ${what} resumes where the last one stopped (default: ${checkpointVariable}, which \`rewards dev\` prints and \`rewards status\` reads)`,
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

/** How a run of a local stream function ended. */
export interface StreamFunctionRun<Outcomes> {
  /** Its statistics, with the batches given up. */
  summary: Outcomes & { invocations: number; records: number; retries: number; givenUp: number };
  /** What stopped it: `caught up` (--drain), the signal (`SIGINT`, `SIGTERM`), or `the source's end`. */
  stoppedBy: string;
  /** Whether everything the stream held at its start had gone through it when it stopped. */
  caughtUp: boolean;
}

/** Resolves once the source has delivered everything written to the table before `since`. */
async function caughtUpWith(source: StreamSource, since: number): Promise<void> {
  while (!source.caughtUp(since)) await delay(100);
}

/**
 * Runs a local stream function until SIGINT/SIGTERM, the source's end, or — with `--drain` —
 * until everything the stream held at `startedAt` went through it; then stops it (the
 * invocation in flight finishes) and answers its statistics with the batches given up, what
 * stopped it, and whether it had caught up by then.
 */
export async function runUntilStopped<Outcomes extends Record<string, number>>(
  fn: {
    source: StreamSource;
    stats: { outcomes: Outcomes; invocations: number; records: number; retries: number };
    stop(): Promise<void>;
  },
  options: { drain?: boolean | undefined; startedAt: number; logger: Logger; io: Pick<Io, "untilSignal"> },
): Promise<StreamFunctionRun<Outcomes>> {
  const untilCaughtUp = options.drain
    ? caughtUpWith(fn.source, options.startedAt).then(() => "caught up")
    : new Promise<never>(() => {});
  const stoppedBy = await Promise.race([
    options.io.untilSignal((signal) =>
      options.logger.info({ signal }, "stopping: finishing the invocation in flight"),
    ),
    fn.source.done.then(() => "the source's end"),
    untilCaughtUp,
  ]);
  const caughtUp = stoppedBy === "caught up" || fn.source.caughtUp(options.startedAt);
  await fn.stop();
  return {
    summary: {
      ...fn.stats.outcomes,
      invocations: fn.stats.invocations,
      records: fn.stats.records,
      retries: fn.stats.retries,
      givenUp: fn.source.givenUp,
    },
    stoppedBy,
    caughtUp,
  };
}

/**
 * A run's last lines, for stderr, each a reason to exit 1: the batches it gave up
 * (givenUpNotice), and a `--drain` stopped before it caught up (unfinishedDrainNotice).
 */
export async function runEndNotices(
  run: StreamFunctionRun<Record<string, number>>,
  options: StreamFunctionCliOptions,
  what: string,
  destination: GivenUpDestination,
): Promise<Pick<CommandResult, "warning" | "exitCode">> {
  const { givenUpNotice } = await import("../text/givenUpNotice");
  const lines = [
    givenUpNotice(run.summary.givenUp, destination),
    unfinishedDrainNotice({ ...run, drain: options.drain === true }, what, options.checkpoint),
  ].filter((line) => line !== undefined);
  if (lines.length === 0) return {};
  return { warning: lines.map((line) => `rewards: ${line}\n`).join(""), exitCode: 1 };
}
