import { createAnnouncerDeps } from "@rewards/announcer";
import { epochMsOfRfc3339 } from "@rewards/core";
import type { Environment } from "@rewards/core/deploy";
import { type Command, InvalidArgumentError } from "commander";
import { type CliConfig, clientsFor, commandConfig } from "../cliConfig";
import { release } from "../dlq/heldMessages";
import { type FailureReplay, failureRow, holdFailures, replayFailures } from "../grants/failedBatches";
import { type ReceivedAnnouncement, type ReceivedGrants, receiveGrants } from "../grants/receiveGrants";
import { republishFromTable } from "../grants/republish";
import { createStreamsClient } from "../grants/tableStream";
import { integer } from "../options";
import { plural, printJson, printPairs, printTable } from "../output";
import { type Progress, progressBar } from "../progress";
import { queueCounts } from "../queues/queueCounts";
import { untilSignal } from "../untilSignal";

/** An instant: RFC 3339 (`2026-12-01T09:00:00Z`) or a date (`2026-12-01`, midnight UTC). */
function instant(value: string): Date {
  const ms = epochMsOfRfc3339(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms))
    throw new InvalidArgumentError("expected an RFC 3339 date-time, e.g. 2026-12-01T09:00:00Z");
  return new Date(ms);
}

/** The announcer's own dependencies, from the shell's configuration (BUS_NAME and the SDK's variables). */
function announcerDepsOf(config: CliConfig<"BUS_NAME">) {
  const env: Environment = Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  return createAnnouncerDeps({ ...env, LOG_LEVEL: config.LOG_LEVEL ?? "warn" });
}

function progressFor(json: boolean | undefined, label: string) {
  let bar: Progress | undefined;
  const onProgress = json
    ? undefined
    : (done: number, total: number) => {
        bar ??= progressBar(label, total);
        bar.update(done);
      };
  return { onProgress, stop: () => bar?.stop() };
}

/** One announcement as a row: a revocation's XP is shown taken back. */
function announcementRow({ announcement }: ReceivedAnnouncement) {
  const { id, type, data } = announcement;
  return {
    type,
    id,
    userId: data.userId,
    eventType: data.eventType,
    xp: type === "reward.revoked" ? -data.xp : data.xp,
    awardedAt: data.awardedAt,
  };
}

const OUTCOME_WORDS: Record<FailureReplay["outcome"], string> = {
  republished: "republished",
  "would republish": "would republish",
  "not all published": "not all published (kept)",
  gone: "no longer in the stream (kept)",
  unreadable: "not a failure record (kept)",
};

export function registerGrants(program: Command): void {
  const grants = program
    .command("grants")
    .description("reward.granted events: read them, and replay the announcer's given-up batches");

  grants
    .command("tail")
    .description(
      "print the reward.granted and reward.revoked events a consumer's queue holds (GRANTS_QUEUE_URL; locally, the queue the local bus fills with EventBridge's envelope), in either shape a rule delivers (the envelope, or the CloudEvent alone with InputPath=$.detail), and remove the ones printed; a message it cannot read is reported (message id and why) and left in the queue, visible again at once (exit 1)",
    )
    .option("--max <n>", "at most this many events", integer(1, 1_000_000), 100)
    .option("--follow", "keep reading as events arrive, until Ctrl-C")
    .option("--keep", "leave them in the queue")
    .option(
      "--json",
      "print one JSON object per event (the CloudEvent), one per line; each unreadable message as one JSON object ({messageId, problem}) per line on stderr",
    )
    .action(async (options: { max: number; follow?: boolean; keep?: boolean; json?: boolean }) => {
      const config = commandConfig("GRANTS_QUEUE_URL");
      const { sqs } = clientsFor(config);
      const stop = new AbortController();
      if (options.follow) void untilSignal(() => stop.abort());
      const print = ({ announcements, unreadable }: Pick<ReceivedGrants, "announcements" | "unreadable">) => {
        if (options.json) {
          for (const { announcement } of announcements)
            process.stdout.write(`${JSON.stringify(announcement)}\n`);
          for (const item of unreadable) process.stderr.write(`${JSON.stringify(item)}\n`);
          return;
        }
        if (announcements.length > 0) printTable(announcements.map(announcementRow));
        for (const { messageId, problem } of unreadable)
          process.stdout.write(`message ${messageId} left in the queue: ${problem}\n`);
      };
      const received = await receiveGrants(sqs, config.GRANTS_QUEUE_URL, {
        max: options.max,
        waitSeconds: options.follow ? 20 : 1,
        keep: options.keep === true,
        ...(options.follow ? { signal: stop.signal, onBatch: print } : {}),
      });
      if (!options.follow) print(received);
      for (const { messageId, error } of received.notDeleted)
        process.stderr.write(
          `message ${messageId} printed but not deleted (it will be read again): ${error}\n`,
        );
      if (!options.json) {
        if (received.announcements.length === 0 && received.unreadable.length === 0)
          process.stdout.write("no reward.granted or reward.revoked events waiting\n");
        else if (received.unreadable.length > 0)
          process.stdout.write(
            `${plural(received.announcements.length, "event")} read; ${plural(received.unreadable.length, "unreadable message")} left in the queue\n`,
          );
      }
      if (received.unreadable.length > 0 || received.notDeleted.length > 0) process.exitCode = 1;
    });

  grants
    .command("failures")
    .description(
      "show the announcer's given-up batches (ANNOUNCER_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
    )
    .option("--max <n>", "at most this many", integer(1, 1000), 10)
    .option("--json", "print JSON (the failure records as Lambda wrote them)")
    .action(async (options: { max: number; json?: boolean }) => {
      const config = commandConfig("ANNOUNCER_FAILURE_QUEUE_URL");
      const { sqs } = clientsFor(config);
      const counts = await queueCounts(sqs, config.ANNOUNCER_FAILURE_QUEUE_URL);
      const held = await holdFailures(sqs, config.ANNOUNCER_FAILURE_QUEUE_URL, options.max, 30);
      await release(
        sqs,
        config.ANNOUNCER_FAILURE_QUEUE_URL,
        held.map((h) => h.message),
      );
      if (options.json)
        return printJson(
          held.map((h) => (h.ok ? h.failure : { messageId: h.message.MessageId, problem: h.problem })),
        );
      if (held.length === 0)
        return void process.stdout.write("no given-up batches: every award was announced\n");
      printTable(held.map(failureRow));
      if (counts.visible > held.length) process.stdout.write(`(${held.length} of ${counts.visible} shown)\n`);
    });

  grants
    .command("replay")
    .description(
      "announce the awards of given-up batches again: read each batch back from the stream (within its 24 hours), publish with the announcer's code, delete the failure record once all are published (harmless to repeat: each award keeps its id)",
    )
    .option("--max <n>", "at most this many failure records", integer(1, 100_000), 1000)
    .option("--dry-run", "publish nothing; say how many awards each batch holds")
    .option("--json", "print JSON")
    .action(async (options: { max: number; dryRun?: boolean; json?: boolean }) => {
      const config = commandConfig(
        "ANNOUNCER_FAILURE_QUEUE_URL",
        ...(options.dryRun ? [] : (["BUS_NAME"] as const)),
      );
      const { sqs } = clientsFor(config);
      const progress = progressFor(options.json, "replay");
      const results = await replayFailures({
        sqs,
        streams: createStreamsClient(config),
        announcer: announcerDepsOf({ ...config, BUS_NAME: config.BUS_NAME ?? "(dry run)" }),
        queueUrl: config.ANNOUNCER_FAILURE_QUEUE_URL,
        max: options.max,
        dryRun: options.dryRun === true,
        onProgress: progress.onProgress,
      });
      progress.stop();
      const published = results.reduce((n, r) => n + r.published, 0);
      const kept = results.filter((r) => r.outcome !== "republished" && r.outcome !== "would republish");
      if (options.json) printJson({ batches: results.length, published, kept: kept.length, results });
      else if (results.length === 0) process.stdout.write("no given-up batches to replay\n");
      else {
        printTable(
          results.map((r) => ({ ...r, outcome: OUTCOME_WORDS[r.outcome] })),
          ["from", "to", "awards", "published", "outcome", "reason"],
        );
        process.stdout.write(
          options.dryRun
            ? `${plural(results.length, "batch", "batches")}, ${plural(
                results.reduce((n, r) => n + r.awards, 0),
                "award",
              )} would be published\n`
            : `${plural(published, "award")} published from ${plural(results.length - kept.length, "batch", "batches")}; ${plural(kept.length, "batch", "batches")} kept\n`,
        );
        if (results.some((r) => r.outcome === "gone"))
          process.stdout.write(
            "Batches no longer in the stream: announce their awards again from the table with `rewards grants republish --since <their first arrival>`.\n",
          );
      }
      if (!options.dryRun && kept.length > 0) process.exitCode = 1;
    });

  grants
    .command("republish")
    .description(
      "announce again, from the table, every award committed in a time window (a scan of TABLE_NAME): for batches the stream no longer holds; each event keeps its id",
    )
    .requiredOption(
      "--since <time>",
      "awards committed at or after this instant (RFC 3339, or a date)",
      instant,
    )
    .option("--until <time>", "and at or before this one (default: now)", instant)
    .option("--user <userId>", "only this user's awards")
    .option("--dry-run", "publish nothing; count the awards")
    .option("--json", "print JSON")
    .action(
      async (options: { since: Date; until?: Date; user?: string; dryRun?: boolean; json?: boolean }) => {
        const config = commandConfig("TABLE_NAME", ...(options.dryRun ? [] : (["BUS_NAME"] as const)));
        const { dynamo } = clientsFor(config);
        const deps =
          options.dryRun || !config.BUS_NAME
            ? undefined
            : announcerDepsOf({ ...config, BUS_NAME: config.BUS_NAME });
        const report = await republishFromTable({
          dynamo,
          tableName: config.TABLE_NAME,
          since: options.since,
          until: options.until ?? new Date(),
          userId: options.user,
          publish: deps ? { client: deps.eventBridge, busName: deps.busName, clock: Date.now } : undefined,
        });
        if (options.json) printJson(report);
        else
          printPairs({
            "awards in the window": report.found,
            ...(options.dryRun ? {} : { published: report.published, "not published": report.failed.length }),
            "unreadable guards": report.unreadable.length,
            ...(report.failed[0] ? { "first failure": report.failed[0].reason } : {}),
          });
        if (report.failed.length > 0 || report.unreadable.length > 0) process.exitCode = 1;
      },
    );
}
