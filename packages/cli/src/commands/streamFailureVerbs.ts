import { plural } from "@rewards/core";
import type { ToolConfig } from "@rewards/core/deploy";
import type { ReplayWords, StreamReplayTarget, UnreplayableRecord } from "@rewards/ops";
import { integer } from "../options/parsers";
import { type CommandSpec, defineCommand } from "../runtime/defineCommand";
import type { Io } from "../runtime/io";
import { jsonText, tableText } from "../runtime/text";

/** A stream function's failure queue. */
type FailureQueue = "ANNOUNCER_FAILURE_QUEUE_URL" | "HISTORY_FAILURE_QUEUE_URL";

/** What tells one stream function's `failures` from the other's (`rewards grants`, `rewards history`). */
export interface FailuresWords<Queue extends FailureQueue> {
  /** The function's failure queue. */
  queue: Queue;
  description: string;
  /** The line when the queue holds none: visible or held. */
  noneLeft: string;
}

/** What tells one stream function's `replay` from the other's. */
export interface ReplayCommandWords<Queue extends FailureQueue> {
  /** The function's failure queue. */
  queue: Queue;
  /** What `replay` needs besides the queue, unless a dry run: where the function's code writes. */
  replayNeeds: "BUS_NAME" | "TABLE_NAME";
  /** The function's own code, from the command's configuration (a dry run's may lack `replayNeeds`); loaded lazily. */
  target: (config: ToolConfig<Queue>, io: Io) => Promise<StreamReplayTarget>;
  /** `rewards grants replay`: the command the hints name. */
  replayCommand: string;
  description: string;
  /** --dry-run's help. */
  dryRun: string;
  words: ReplayWords;
  /** The line after a replay that met batches no longer in the stream: what to do instead. */
  pastTheStream: string;
}

/**
 * `failures` under a stream function's command: its given-up batches, shown first and
 * released after (nothing is deleted, and a failed release hides nothing read).
 */
export function failuresCommand<Queue extends FailureQueue>(
  words: FailuresWords<Queue>,
): CommandSpec<{ max: number; json?: boolean }, Queue> {
  return defineCommand<{ max: number; json?: boolean }>()({
    meta: { name: "failures", description: words.description },
    options: (command) =>
      command
        .option("--max <n>", "at most this many", integer(1, 1000), 10)
        .option("--json", "print JSON (the failure records as Lambda wrote them)"),
    needs: [words.queue],
    async run({ options, config, io }) {
      const { clientsFor, failureRow, holdFailures, queueCounts, releaseReported } = await import(
        "@rewards/ops"
      );
      const queueUrl = config[words.queue];
      const { sqs } = clientsFor(config);
      const counts = await queueCounts(sqs, queueUrl);
      const held = await holdFailures(sqs, queueUrl, options.max, 30);
      // Held by another reader (a replay under way, say): not shown, and not nothing.
      const elsewhere =
        counts.inFlight > 0 ? `${counts.inFlight} held by another reader: try again in a while` : undefined;
      // Shown first, released after: nothing is deleted, and a failed release hides nothing read.
      if (options.json) {
        await io.out(
          jsonText(
            held.map((h) => (h.ok ? h.failure : { messageId: h.message.MessageId, problem: h.problem })),
          ),
        );
        if (elsewhere !== undefined) io.err(`rewards: not shown: ${elsewhere}\n`);
      } else if (held.length === 0)
        await io.out(
          elsewhere === undefined ? `${words.noneLeft}\n` : `no given-up batches visible (${elsewhere})\n`,
        );
      else
        await io.out(
          tableText(held.map(failureRow)) +
            (counts.visible > held.length ? `(${held.length} of ${counts.visible} shown)\n` : "") +
            (elsewhere !== undefined ? `(not shown: ${elsewhere})\n` : ""),
        );
      const notReleased = await releaseReported(
        sqs,
        queueUrl,
        held.map((h) => h.message),
      );
      if (notReleased === undefined) return undefined;
      return {
        warning: `rewards: ${notReleased} (nothing is lost: failures deletes nothing)\n`,
        exitCode: 1,
      };
    },
  });
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

interface ReplayOptions {
  max: number;
  dryRun?: boolean;
  discardUnreplayable?: boolean;
  json?: boolean;
}

/**
 * `replay` under a stream function's command: its given-up batches read back from the stream
 * and handed to the function's own code, each failure record deleted once all is done.
 */
export function replayCommand<Queue extends FailureQueue>(
  words: ReplayCommandWords<Queue>,
): CommandSpec<ReplayOptions, Queue> {
  const { done } = words.words;
  return defineCommand<ReplayOptions>()({
    meta: { name: "replay", description: words.description },
    options: (command) =>
      command
        .option("--max <n>", "at most this many failure records", integer(1, 100_000), 1000)
        .option("--dry-run", words.dryRun)
        .option(
          "--discard-unreplayable",
          "also delete the records no replay can ever do (no longer in the stream, or not a failure record), each printed in full first; never one kept for another reason. With --dry-run, print them and delete nothing",
        )
        .option("--json", "print JSON"),
    needs: [words.queue],
    async run({ options, config: queueOnly, configWith, io }) {
      const dryRun = options.dryRun === true;
      const json = options.json === true;
      const config = dryRun ? queueOnly : configWith(words.replayNeeds);
      const [{ createStreamsClient }, ops] = await Promise.all([
        import("@rewards/core/aws"),
        import("@rewards/ops"),
      ]);
      const { sqs } = ops.clientsFor(config);
      const target = await words.target(config, io);
      const progress = io.progress(json, "replay");
      let notReleased: string | undefined;
      const results = await ops.replayStreamFailures({
        sqs,
        streams: createStreamsClient(config),
        target,
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
                await io.out(unreplayableText(records, dryRun, json));
              },
            }
          : undefined,
      });
      progress.stop();
      const tally = ops.replayTally(results);
      const failed = {
        ...(notReleased !== undefined
          ? { warning: `rewards: ${notReleased} (nothing is lost: they stay in the queue)\n` }
          : {}),
        ...(ops.replayFailed(tally, dryRun, notReleased !== undefined) ? { exitCode: 1 as const } : {}),
      };
      const discardCount = options.discardUnreplayable
        ? dryRun
          ? { wouldDiscard: tally.wouldDiscard }
          : { discarded: tally.discarded }
        : {};
      if (json)
        return {
          ...failed,
          out: jsonText({
            batches: tally.batches,
            [done]: tally.done,
            kept: tally.kept,
            ...discardCount,
            results: results.map((r) => ops.replayInWords(r, words.words)),
          }),
        };
      if (results.length === 0) return { ...failed, out: "no given-up batches to replay\n" };
      const batches = (n: number) => plural(n, "batch", "batches");
      const discarding = options.discardUnreplayable
        ? `; ${dryRun ? `${batches(tally.wouldDiscard)} would be discarded` : `${batches(tally.discarded)} discarded`}`
        : "";
      let out = tableText(
        results.map((r) => ({
          ...ops.replayInWords(r, words.words),
          outcome: ops.outcomeText(r.outcome, words.words),
        })),
        ["from", "to", "awards", done, "outcome", "reason"],
      );
      out += dryRun
        ? `${batches(tally.batches)}, ${plural(tally.handed, "award")} would be ${done}${discarding}\n`
        : `${plural(tally.done, "award")} ${done} from ${batches(tally.replayed)}; ${batches(tally.kept)} kept${discarding}\n`;
      // Discarding (or about to) a record gone from the stream leaves its awards to the step
      // past the stream all the same.
      const gone = results.some((r) => r.outcome === "gone" || r.was === "gone");
      if (gone) out += `${words.pastTheStream}\n`;
      if (results.some((r) => ops.isUnreplayable(r.outcome)))
        out += `No replay can do a record no longer in the stream or not a failure record: \`${words.replayCommand} --discard-unreplayable\` prints each in full and deletes it${gone ? " (once the step above is done)" : ""}.\n`;
      return { ...failed, out };
    },
  });
}
