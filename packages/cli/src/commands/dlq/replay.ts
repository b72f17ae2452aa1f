import type { ReplayFilter } from "@rewards/ops";
import { integer, rate } from "../../options/parsers";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { checkErrorCode, ERROR_OPTION_HELP } from "./errorCode";

interface ReplayCommandOptions extends ReplayFilter {
  max?: number;
  rate?: number;
  dryRun?: boolean;
  skipPaid?: boolean;
  native?: boolean;
  json?: boolean;
}

export default defineCommand<ReplayCommandOptions>()({
  meta: {
    name: "replay",
    description:
      "send parked messages back to QUEUE_URL, one copy per source message, send first and delete after (safe: the guard pays each intent once)",
  },
  options: (command) =>
    command
      .option("--type <type>", "only events of this type")
      .option("--error <code>", ERROR_OPTION_HELP)
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
      .option(
        "--native",
        "use SQS's own redrive (StartMessageMoveTask): all messages, no filters, on AWS only",
      )
      .option("--json", "print JSON"),
  needs: ["DLQ_URL", "QUEUE_URL"],
  async run({ options, config, configWith, io }) {
    checkErrorCode(options.error);
    const judging = options.dryRun === true || options.skipPaid === true;
    if (options.native && (options.type || options.error || options.user || options.max || judging))
      throw new CliError(
        "--native moves every message: it takes no --type, --error, --user, --max, --dry-run or --skip-paid",
        2,
      );
    // Every variable this run needs, read at once: a missing one is named with the others.
    const tableName = judging ? configWith("TABLE_NAME").TABLE_NAME : undefined;
    const { clientsFor, describeReplay, replayDlq, replayNative } = await import("@rewards/ops");
    const { sqs, dynamo } = clientsFor(config);
    const progress = io.progress(options.json, "replay");
    const { onProgress } = progress;
    if (options.native) {
      const moved = await replayNative(sqs, config.DLQ_URL, config.QUEUE_URL, {
        rate: options.rate,
        onProgress,
      });
      progress.stop();
      return { out: options.json ? jsonText(moved) : `${moved.moved} moved by SQS (${moved.status})\n` };
    }
    const report = await replayDlq(sqs, config.DLQ_URL, config.QUEUE_URL, {
      ...options,
      onProgress,
      ...(tableName
        ? { judge: { dynamo, tableName, now: Date.now(), dailyCap: config.REWARDS_DAILY_XP_CAP } }
        : {}),
    });
    progress.stop();
    return {
      out: options.json ? jsonText(report) : `${describeReplay(report)}\n`,
      ...(report.failed > 0 || report.notReleased !== undefined ? { exitCode: 1 as const } : {}),
    };
  },
});
