import { createHistoryDeps, type HistoryDeps } from "@rewards/history";
import type { Command } from "commander";
import { type CliConfig, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { functionLinesToStderr } from "../functions/functionProcess";
import { deployedHistorySettings, startLocalHistory } from "../functions/localHistory";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import type { GivenUpDestination } from "../streamFailures/givenUpNotice";
import { historyReplayTarget } from "../streamFailures/replayTargets";
import { registerHistoryRebuild } from "./historyRebuild";
import { registerStreamFailureCommands } from "./streamFailureCommands";
import {
  addStreamFunctionOptions,
  reportRunEnd,
  runUntilStopped,
  type StreamFunctionCliOptions,
  streamSettingsFrom,
} from "./streamFunctionOptions";

const REBUILD_HINT =
  "rewrite their users' history from the guards with `rewards history rebuild --user <id>`";

/** Where `rewards history` gives batches up, and what reads them (docs/operations.md, "The history"). */
const destination = (set: boolean): GivenUpDestination => ({
  variable: "HISTORY_FAILURE_QUEUE_URL",
  set,
  failures: "rewards history failures",
  replay: "rewards history replay",
  pastTheStream: REBUILD_HINT,
});

/** REWARDS_HISTORY_DAYS as the function reads it, checked before anything starts. */
function historyDaysOf(config: CliConfig): number | undefined {
  const days = config.REWARDS_HISTORY_DAYS === undefined ? undefined : Number(config.REWARDS_HISTORY_DAYS);
  if (days !== undefined && !(Number.isInteger(days) && days >= 0))
    throw new CliError(
      `REWARDS_HISTORY_DAYS: a whole number of days, 0 (forever) or more, not ${JSON.stringify(config.REWARDS_HISTORY_DAYS)}`,
    );
  return days;
}

/**
 * The history writer's own dependencies, from the shell's configuration (TABLE_NAME,
 * REWARDS_HISTORY_DAYS and the SDK's variables); its log lines on stderr, so stdout carries
 * only the report.
 */
function historyDepsOf(config: CliConfig<"TABLE_NAME">): HistoryDeps {
  historyDaysOf(config);
  const level = config.LOG_LEVEL ?? "warn";
  const env = Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  return { ...createHistoryDeps({ ...env, LOG_LEVEL: level }), logger: cliLogger("rewards-history", level) };
}

export function registerHistory(program: Command): void {
  const deployed = deployedHistorySettings();
  const history = addStreamFunctionOptions(
    program
      .command("history")
      .description(
        "run the history's writer on TABLE_NAME's stream with Lambda's stream semantics and the deployed mapping's filter: every award becomes one history item (docs/history.md); given-up batches go to HISTORY_FAILURE_QUEUE_URL (exit 1 if any). Until SIGINT/SIGTERM. `failures` and `replay` operate those batches; `rebuild` rewrites users' history from the guards",
      )
      // `history replay --json` is the subcommand's --json, not the writer's.
      .enablePositionalOptions(),
    deployed,
    "history's writer",
  ).action(async (options: StreamFunctionCliOptions) => {
    const config = commandConfig("TABLE_NAME");
    const logger = cliLogger("rewards-history-source", config.LOG_LEVEL ?? "info");
    const days = historyDaysOf(config);
    const startedAt = Date.now();
    const writer = await startLocalHistory({
      config,
      code: options.function,
      settings: streamSettingsFrom(deployed, options),
      historyDays: days,
      failureQueueUrl: config.HISTORY_FAILURE_QUEUE_URL,
      checkpointFile: options.checkpoint,
      logger,
      onOutput: functionLinesToStderr(logger),
    });
    if (!config.HISTORY_FAILURE_QUEUE_URL)
      logger.warn(
        "HISTORY_FAILURE_QUEUE_URL is not set: batches given up are discarded, as on Lambda without a destination",
      );
    logger.info(
      { table: config.TABLE_NAME },
      options.drain ? "writing the history until caught up" : "writing the history; Ctrl-C to stop",
    );
    const run = await runUntilStopped(writer, { drain: options.drain, startedAt, logger });
    const { summary } = run;
    if (options.json) printJson(summary);
    else
      printPairs({
        written: summary.written,
        "skipped (an older image after a revocation)": summary.skipped,
        "not written (retried)": summary.failed,
        invocations: summary.invocations,
        retries: summary.retries,
        "batches given up": summary.givenUp,
      });
    reportRunEnd(
      run,
      options,
      "history's writer",
      destination(config.HISTORY_FAILURE_QUEUE_URL !== undefined),
    );
  });

  registerStreamFailureCommands(history, {
    queue: "HISTORY_FAILURE_QUEUE_URL",
    replayNeeds: "TABLE_NAME",
    target: (config) =>
      historyReplayTarget(historyDepsOf({ ...config, TABLE_NAME: config.TABLE_NAME ?? "(dry run)" })),
    replayCommand: "rewards history replay",
    failures: {
      description:
        "show the history writer's given-up batches (HISTORY_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
      noneLeft: "no given-up batches: every award the writer was handed is in the history",
    },
    replay: {
      description:
        "write the history items of given-up batches: read each batch back from the stream (within its 24 hours) to its last record, run the history writer's own code on its awards and revocations, delete the failure record once every item is written (harmless to repeat: each record writes the same item)",
      dryRun: "write nothing; say how many awards each batch holds",
      words: {
        done: "written",
        replayed: "written",
        wouldReplay: "would write",
        notAllDone: "not all written",
      },
      pastTheStream: `Batches no longer in the stream: ${REBUILD_HINT} (or \`--all\`).`,
    },
  });

  registerHistoryRebuild(history);
}
