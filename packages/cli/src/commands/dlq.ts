import { PurgeQueueCommand } from "@aws-sdk/client-sqs";
import { DLQ_ERRORS } from "@rewards/core";
import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { replayDlq } from "../dlq/filteredReplay";
import { dlqStats, peekDlq } from "../dlq/inspect";
import { replayNative } from "../dlq/nativeRedrive";
import type { ReplayFilter } from "../dlq/replayFilter";
import { describeReplay } from "../dlq/replayReport";
import { shownVerdicts, VERDICT_WORDS } from "../dlq/replayVerdict";
import { integer, rate } from "../options";
import { plural, printJson, printPairs, printTable } from "../output";
import { progressFor } from "../progress";
import { queueCounts } from "../queues/queueCounts";

interface ReplayCommandOptions {
  type?: string;
  error?: string;
  user?: string;
  max?: number;
  rate?: number;
  dryRun?: boolean;
  skipPaid?: boolean;
  native?: boolean;
  json?: boolean;
}

/** Long text cut for a table cell; --json has it whole. */
const clip = (text: string, max: number) =>
  [...text].length > max ? `${[...text].slice(0, max - 1).join("")}…` : text;

function checkErrorCode(code: string | undefined): void {
  if (code !== undefined && !(DLQ_ERRORS as readonly string[]).includes(code))
    throw new CliError(`--error must be one of ${DLQ_ERRORS.join(", ")}`, 2);
}

export function registerDlq(program: Command): void {
  const dlq = program.command("dlq").description("inspect and replay the dead-letter queue (DLQ_URL)");

  dlq
    .command("stats")
    .description(
      "how many messages are parked (copies, and distinct source messages), by rewards.error, by event type, and by what a replay would do now (reads the guards in TABLE_NAME)",
    )
    .option(
      "--sample <n>",
      "read at most this many for the breakdown (nothing is consumed)",
      integer(1, 100_000),
      1000,
    )
    .option("--json", "print JSON")
    .action(async (options: { sample: number; json?: boolean }) => {
      const config = commandConfig("DLQ_URL", "TABLE_NAME");
      const { sqs, dynamo } = clientsFor(config);
      const stats = await dlqStats(sqs, config.DLQ_URL, options.sample, {
        dynamo,
        tableName: config.TABLE_NAME,
        now: Date.now(),
        dailyCap: config.REWARDS_DAILY_XP_CAP,
      });
      if (options.json) return printJson(stats);
      printPairs({
        "parked (copies)": stats.visible,
        "distinct messages": `${stats.distinct}${stats.sampled < stats.visible ? ` (in a sample of ${stats.sampled})` : ""}`,
        "being read now": stats.inFlight,
        delayed: stats.delayed,
        "by rewards.error": Object.entries(stats.byError)
          .map(([k, n]) => `${k} ${n}`)
          .join(", "),
        "by event type": Object.entries(stats.byType)
          .map(([k, n]) => `${k} ${n}`)
          .join(", "),
        "a replay now would": shownVerdicts(stats.byVerdict)
          .map(([verdict, n]) => `${VERDICT_WORDS[verdict]} ${n}`)
          .join(", "),
      });
    });

  dlq
    .command("peek")
    .description("show parked messages and why they were parked, without removing them")
    .option("--max <n>", "at most this many", integer(1, 1000), 10)
    .option("--type <type>", "only events of this type")
    .option("--error <code>", `only messages parked for this reason: ${DLQ_ERRORS.join(", ")}`)
    .option("--user <userId>", "only events of this user")
    .option("--json", "print JSON (with full bodies)")
    .action(async (options: { max: number; json?: boolean } & ReplayFilter) => {
      checkErrorCode(options.error);
      const config = commandConfig("DLQ_URL");
      const { parked, notReleased } = await peekDlq(
        clientsFor(config).sqs,
        config.DLQ_URL,
        options.max,
        options,
      );
      if (notReleased !== undefined) {
        process.stderr.write(`rewards: ${notReleased} (nothing is lost: peek deletes nothing)\n`);
        process.exitCode = 1;
      }
      if (options.json) return printJson(parked);
      if (parked.length === 0) {
        const filtered = options.type || options.error || options.user;
        return void process.stdout.write(filtered ? "no parked message matches\n" : "the DLQ is empty\n");
      }
      printTable(
        parked.map((p) => ({ ...p, reason: clip(p.reason, 100), body: clip(p.body, 60) })),
        ["sourceMessageId", "error", "type", "userId", "reason", "parkedAt", "body"],
      );
    });

  dlq
    .command("replay")
    .description(
      "send parked messages back to QUEUE_URL, one copy per source message, send first and delete after (safe: the guard pays each intent once)",
    )
    .option("--type <type>", "only events of this type")
    .option("--error <code>", `only messages parked for this reason: ${DLQ_ERRORS.join(", ")}`)
    .option("--user <userId>", "only events of this user")
    .option("--max <n>", "at most this many messages", integer(1))
    .option("--rate <n/s>", "at most this many sends per second", rate)
    .option(
      "--dry-run",
      "move nothing; say what a replay would do to each message now (pay, already paid, stale, invalid; reads TABLE_NAME)",
    )
    .option(
      "--skip-paid",
      "delete copies whose intent is already paid (guard present and unexpired) instead of sending them (reads TABLE_NAME)",
    )
    .option("--native", "use SQS's own redrive (StartMessageMoveTask): all messages, no filters, on AWS only")
    .option("--json", "print JSON")
    .action(async (options: ReplayCommandOptions) => {
      checkErrorCode(options.error);
      const judging = options.dryRun === true || options.skipPaid === true;
      const config = commandConfig("DLQ_URL", "QUEUE_URL", ...(judging ? (["TABLE_NAME"] as const) : []));
      const { sqs, dynamo } = clientsFor(config);
      const progress = progressFor(options.json, "replay");
      const { onProgress } = progress;
      if (options.native) {
        if (options.type || options.error || options.user || options.max || judging)
          throw new CliError(
            "--native moves every message: it takes no --type, --error, --user, --max, --dry-run or --skip-paid",
            2,
          );
        const moved = await replayNative(sqs, config.DLQ_URL, config.QUEUE_URL, {
          rate: options.rate,
          onProgress,
        });
        progress.stop();
        if (options.json) printJson(moved);
        else process.stdout.write(`${moved.moved} moved by SQS (${moved.status})\n`);
        return;
      }
      const report = await replayDlq(sqs, config.DLQ_URL, config.QUEUE_URL, {
        ...options,
        onProgress,
        ...(judging && config.TABLE_NAME
          ? {
              judge: {
                dynamo,
                tableName: config.TABLE_NAME,
                now: Date.now(),
                dailyCap: config.REWARDS_DAILY_XP_CAP,
              },
            }
          : {}),
      });
      progress.stop();
      if (options.json) printJson(report);
      else process.stdout.write(`${describeReplay(report)}\n`);
      if (report.failed > 0 || report.notReleased !== undefined) process.exitCode = 1;
    });

  dlq
    .command("purge")
    .description("delete every parked message for good")
    .option("--yes", "confirm: the messages cannot be recovered")
    .option("--json", "print JSON")
    .action(async (options: { yes?: boolean; json?: boolean }) => {
      if (!options.yes)
        throw new CliError("purge deletes every parked message for good; add --yes to confirm", 2);
      const config = commandConfig("DLQ_URL");
      const { sqs } = clientsFor(config);
      // SQS purges what the queue holds when asked; its counts just before say how much that is.
      const counts = await queueCounts(sqs, config.DLQ_URL);
      const purged = counts.visible + counts.inFlight + counts.delayed;
      await sqs.send(new PurgeQueueCommand({ QueueUrl: config.DLQ_URL }));
      if (options.json) printJson({ purged });
      else process.stdout.write(`${plural(purged, "message")} purged from the DLQ\n`);
    });
}
