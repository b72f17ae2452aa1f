import { createHistoryDeps, type HistoryDeps } from "@rewards/history";
import type { Command } from "commander";
import { type CliConfig, clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { releaseReported } from "../dlq/heldMessages";
import { functionLinesToStderr } from "../functions/functionProcess";
import { deployedHistorySettings, startLocalHistory } from "../functions/localHistory";
import { createStreamsClient } from "../grants/tableStream";
import { type HistoryReplay, replayHistoryFailures } from "../history/replayHistoryFailures";
import { integer } from "../options";
import { plural, printJson, printPairs, printTable } from "../output";
import { progressFor } from "../progress";
import { queueCounts } from "../queues/queueCounts";
import { cliLogger } from "../stdErrLogger";
import { type GivenUpDestination, givenUpNotice } from "../streamFailures/givenUpNotice";
import { failureRow, holdFailures } from "../streamFailures/heldFailures";
import { registerHistoryRebuild } from "./historyRebuild";
import {
  addStreamFunctionOptions,
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

const OUTCOME_WORDS: Record<HistoryReplay["outcome"], string> = {
  written: "written",
  "would write": "would write",
  "not all written": "not all written (kept)",
  incomplete: "not all the batch's records found (kept)",
  failed: "failed (kept)",
  gone: "no longer in the stream (kept)",
  unreadable: "not a failure record (kept)",
};

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
    const summary = await runUntilStopped(writer, { drain: options.drain, startedAt, logger });
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
    const notice = givenUpNotice(
      summary.givenUp,
      destination(config.HISTORY_FAILURE_QUEUE_URL !== undefined),
    );
    if (notice !== undefined) {
      process.stderr.write(`rewards: ${notice}\n`);
      process.exitCode = 1;
    }
  });

  history
    .command("failures")
    .description(
      "show the history writer's given-up batches (HISTORY_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
    )
    .option("--max <n>", "at most this many", integer(1, 1000), 10)
    .option("--json", "print JSON (the failure records as Lambda wrote them)")
    .action(async (options: { max: number; json?: boolean }) => {
      const config = commandConfig("HISTORY_FAILURE_QUEUE_URL");
      const { sqs } = clientsFor(config);
      const counts = await queueCounts(sqs, config.HISTORY_FAILURE_QUEUE_URL);
      const held = await holdFailures(sqs, config.HISTORY_FAILURE_QUEUE_URL, options.max, 30);
      // Shown first, released after: nothing is deleted, and a failed release hides nothing read.
      if (options.json)
        printJson(
          held.map((h) => (h.ok ? h.failure : { messageId: h.message.MessageId, problem: h.problem })),
        );
      else if (held.length === 0)
        process.stdout.write("no given-up batches: every award the writer was handed is in the history\n");
      else {
        printTable(held.map(failureRow));
        if (counts.visible > held.length)
          process.stdout.write(`(${held.length} of ${counts.visible} shown)\n`);
      }
      const notReleased = await releaseReported(
        sqs,
        config.HISTORY_FAILURE_QUEUE_URL,
        held.map((h) => h.message),
      );
      if (notReleased !== undefined) {
        process.stderr.write(`rewards: ${notReleased} (nothing is lost: failures deletes nothing)\n`);
        process.exitCode = 1;
      }
    });

  history
    .command("replay")
    .description(
      "write the history items of given-up batches: read each batch back from the stream (within its 24 hours) to its last record, run the history writer's own code on its awards and revocations, delete the failure record once every item is written (harmless to repeat: each record writes the same item)",
    )
    .option("--max <n>", "at most this many failure records", integer(1, 100_000), 1000)
    .option("--dry-run", "write nothing; say how many awards each batch holds")
    .option("--json", "print JSON")
    .action(async (options: { max: number; dryRun?: boolean; json?: boolean }) => {
      const config = commandConfig(
        "HISTORY_FAILURE_QUEUE_URL",
        ...(options.dryRun ? [] : (["TABLE_NAME"] as const)),
      );
      const { sqs } = clientsFor(config);
      const progress = progressFor(options.json, "replay");
      let notReleased: string | undefined;
      const results = await replayHistoryFailures({
        sqs,
        streams: createStreamsClient(config),
        history: historyDepsOf({ ...config, TABLE_NAME: config.TABLE_NAME ?? "(dry run)" }),
        queueUrl: config.HISTORY_FAILURE_QUEUE_URL,
        max: options.max,
        dryRun: options.dryRun === true,
        onProgress: progress.onProgress,
        onNotReleased: (problem) => {
          notReleased = problem;
        },
      });
      progress.stop();
      const written = results.reduce((n, r) => n + r.written, 0);
      const kept = results.filter((r) => r.outcome !== "written" && r.outcome !== "would write");
      if (options.json) printJson({ batches: results.length, written, kept: kept.length, results });
      else if (results.length === 0) process.stdout.write("no given-up batches to replay\n");
      else {
        printTable(
          results.map((r) => ({ ...r, outcome: OUTCOME_WORDS[r.outcome] })),
          ["from", "to", "awards", "written", "outcome", "reason"],
        );
        process.stdout.write(
          options.dryRun
            ? `${plural(results.length, "batch", "batches")}, ${plural(
                results.reduce((n, r) => n + r.awards, 0),
                "award",
              )} would be written\n`
            : `${plural(written, "award")} written from ${plural(results.length - kept.length, "batch", "batches")}; ${plural(kept.length, "batch", "batches")} kept\n`,
        );
        if (results.some((r) => r.outcome === "gone"))
          process.stdout.write(`Batches no longer in the stream: ${REBUILD_HINT} (or \`--all\`).\n`);
      }
      if (notReleased !== undefined)
        process.stderr.write(`rewards: ${notReleased} (nothing is lost: they stay in the queue)\n`);
      const refused = results.some((r) => r.outcome === "incomplete" || r.outcome === "failed");
      if ((!options.dryRun && kept.length > 0) || refused || notReleased !== undefined) process.exitCode = 1;
    });

  registerHistoryRebuild(history);
}
