import type { Command } from "commander";
import { type CliConfig, clientsFor, commandConfig } from "../cliConfig";
import { releaseReported } from "../dlq/heldMessages";
import { createStreamsClient } from "../grants/tableStream";
import { integer } from "../options";
import { plural, printJson, printTable, writeFlushed } from "../output";
import { progressFor } from "../progress";
import { queueCounts } from "../queues/queueCounts";
import { isUnreplayable } from "../streamFailures/batchReplay";
import { failureRow, holdFailures } from "../streamFailures/heldFailures";
import { outcomeText, type ReplayWords, replayInWords } from "../streamFailures/replayInWords";
import {
  replayStreamFailures,
  type StreamReplayTarget,
  type UnreplayableRecord,
} from "../streamFailures/replayStreamFailures";
import { replayFailed, replayTally } from "../streamFailures/replayTally";

/** What tells one stream function's `failures` and `replay` from the other's. */
export interface StreamFailureCommandWords {
  /** The function's failure queue. */
  queue: "ANNOUNCER_FAILURE_QUEUE_URL" | "HISTORY_FAILURE_QUEUE_URL";
  /** What `replay` needs besides the queue, unless a dry run: where the function's code writes. */
  replayNeeds: "BUS_NAME" | "TABLE_NAME";
  /** The function's own code, from the command's configuration (a dry run's may lack `replayNeeds`). */
  target: (config: CliConfig) => StreamReplayTarget;
  /** `rewards grants replay`: the command the hints name. */
  replayCommand: string;
  failures: {
    description: string;
    /** The line when the queue holds none: visible or held. */
    noneLeft: string;
  };
  replay: {
    description: string;
    /** --dry-run's help. */
    dryRun: string;
    words: ReplayWords;
    /** The line after a replay that met batches no longer in the stream: what to do instead. */
    pastTheStream: string;
  };
}

/** What a record no replay can do is, as its printed line says. */
const UNREPLAYABLE_WHY: Record<UnreplayableRecord["outcome"], string> = {
  gone: "no longer in the stream",
  unreadable: "not a failure record",
};

/** --discard-unreplayable's lines: each record in full, before it is deleted. */
function unreplayableText(records: readonly UnreplayableRecord[], dryRun: boolean, json: boolean): string {
  if (json)
    return records
      .map((record) => `${JSON.stringify({ [dryRun ? "wouldDiscard" : "discarding"]: record })}\n`)
      .join("");
  const verb = dryRun ? "would discard" : "discarding";
  return records
    .map(
      (record) =>
        `${verb} message ${record.messageId} (${UNREPLAYABLE_WHY[record.outcome]}): ${record.body}\n`,
    )
    .join("");
}

/**
 * `failures` and `replay` under a stream function's command (`rewards grants`, `rewards
 * history`): one pair of subcommands, the function's own words and code.
 */
export function registerStreamFailureCommands(parent: Command, words: StreamFailureCommandWords): void {
  parent
    .command("failures")
    .description(words.failures.description)
    .option("--max <n>", "at most this many", integer(1, 1000), 10)
    .option("--json", "print JSON (the failure records as Lambda wrote them)")
    .action(async (options: { max: number; json?: boolean }) => {
      const config = commandConfig(words.queue);
      const queueUrl = config[words.queue];
      const { sqs } = clientsFor(config);
      const counts = await queueCounts(sqs, queueUrl);
      const held = await holdFailures(sqs, queueUrl, options.max, 30);
      // Held by another reader (a replay under way, say): not shown, and not nothing.
      const elsewhere =
        counts.inFlight > 0 ? `${counts.inFlight} held by another reader: try again in a while` : undefined;
      // Shown first, released after: nothing is deleted, and a failed release hides nothing read.
      if (options.json) {
        printJson(
          held.map((h) => (h.ok ? h.failure : { messageId: h.message.MessageId, problem: h.problem })),
        );
        if (elsewhere !== undefined) process.stderr.write(`rewards: not shown: ${elsewhere}\n`);
      } else if (held.length === 0)
        process.stdout.write(
          elsewhere === undefined
            ? `${words.failures.noneLeft}\n`
            : `no given-up batches visible (${elsewhere})\n`,
        );
      else {
        printTable(held.map(failureRow));
        if (counts.visible > held.length)
          process.stdout.write(`(${held.length} of ${counts.visible} shown)\n`);
        if (elsewhere !== undefined) process.stdout.write(`(not shown: ${elsewhere})\n`);
      }
      const notReleased = await releaseReported(
        sqs,
        queueUrl,
        held.map((h) => h.message),
      );
      if (notReleased !== undefined) {
        process.stderr.write(`rewards: ${notReleased} (nothing is lost: failures deletes nothing)\n`);
        process.exitCode = 1;
      }
    });

  const { done } = words.replay.words;
  parent
    .command("replay")
    .description(words.replay.description)
    .option("--max <n>", "at most this many failure records", integer(1, 100_000), 1000)
    .option("--dry-run", words.replay.dryRun)
    .option(
      "--discard-unreplayable",
      "also delete the records no replay can ever do (no longer in the stream, or not a failure record), each printed in full first; never one kept for another reason. With --dry-run, print them and delete nothing",
    )
    .option("--json", "print JSON")
    .action(
      async (options: { max: number; dryRun?: boolean; discardUnreplayable?: boolean; json?: boolean }) => {
        const dryRun = options.dryRun === true;
        const json = options.json === true;
        const config = commandConfig(words.queue, ...(dryRun ? [] : [words.replayNeeds]));
        const { sqs } = clientsFor(config);
        const progress = progressFor(json, "replay");
        let notReleased: string | undefined;
        const results = await replayStreamFailures({
          sqs,
          streams: createStreamsClient(config),
          target: words.target(config),
          queueUrl: config[words.queue],
          max: options.max,
          dryRun,
          onProgress: progress.onProgress,
          onNotReleased: (problem) => {
            notReleased = problem;
          },
          discard: options.discardUnreplayable
            ? {
                show: async (records) => {
                  progress.stop();
                  await writeFlushed(process.stdout, unreplayableText(records, dryRun, json));
                },
              }
            : undefined,
        });
        progress.stop();
        const tally = replayTally(results);
        const discardCount = options.discardUnreplayable
          ? dryRun
            ? { wouldDiscard: tally.wouldDiscard }
            : { discarded: tally.discarded }
          : {};
        if (json)
          printJson({
            batches: tally.batches,
            [done]: tally.done,
            kept: tally.kept,
            ...discardCount,
            results: results.map((r) => replayInWords(r, words.replay.words)),
          });
        else if (results.length === 0) process.stdout.write("no given-up batches to replay\n");
        else {
          printTable(
            results.map((r) => ({
              ...replayInWords(r, words.replay.words),
              outcome: outcomeText(r.outcome, words.replay.words),
            })),
            ["from", "to", "awards", done, "outcome", "reason"],
          );
          const batches = (n: number) => plural(n, "batch", "batches");
          const discarding = options.discardUnreplayable
            ? `; ${dryRun ? `${batches(tally.wouldDiscard)} would be discarded` : `${batches(tally.discarded)} discarded`}`
            : "";
          process.stdout.write(
            dryRun
              ? `${batches(tally.batches)}, ${plural(tally.handed, "award")} would be ${done}${discarding}\n`
              : `${plural(tally.done, "award")} ${done} from ${batches(tally.replayed)}; ${batches(tally.kept)} kept${discarding}\n`,
          );
          // Discarding (or about to) a record gone from the stream leaves its awards to the step
          // past the stream all the same.
          const gone = results.some((r) => r.outcome === "gone" || r.was === "gone");
          if (gone) process.stdout.write(`${words.replay.pastTheStream}\n`);
          if (results.some((r) => isUnreplayable(r.outcome)))
            process.stdout.write(
              `No replay can do a record no longer in the stream or not a failure record: \`${words.replayCommand} --discard-unreplayable\` prints each in full and deletes it${gone ? " (once the step above is done)" : ""}.\n`,
            );
        }
        if (notReleased !== undefined)
          process.stderr.write(`rewards: ${notReleased} (nothing is lost: they stay in the queue)\n`);
        if (replayFailed(tally, dryRun, notReleased !== undefined)) process.exitCode = 1;
      },
    );
}
