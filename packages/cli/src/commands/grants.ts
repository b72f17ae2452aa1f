import { createAnnouncerDeps } from "@rewards/announcer";
import { epochMsOfRfc3339 } from "@rewards/core";
import type { Environment } from "@rewards/core/deploy";
import { type Command, InvalidArgumentError } from "commander";
import { type CliConfig, clientsFor, commandConfig } from "../cliConfig";
import { type GrantsBatch, type ReceivedAnnouncement, receiveGrants } from "../grants/receiveGrants";
import { republishFromTable } from "../grants/republish";
import { integer } from "../options";
import { plural, printJson, printPairs, tableText, writeFlushed } from "../output";
import { cliLogger } from "../stdErrLogger";
import { announcerReplayTarget } from "../streamFailures/replayTargets";
import { untilSignal } from "../untilSignal";
import { registerStreamFailureCommands } from "./streamFailureCommands";

/** An instant: RFC 3339 (`2026-12-01T09:00:00Z`) or a date (`2026-12-01`, midnight UTC). */
function instant(value: string): Date {
  const ms = epochMsOfRfc3339(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms))
    throw new InvalidArgumentError("expected an RFC 3339 date-time, e.g. 2026-12-01T09:00:00Z");
  return new Date(ms);
}

/**
 * The announcer's own dependencies, from the shell's configuration (BUS_NAME and the SDK's
 * variables); its log lines on stderr, so stdout carries only the report.
 */
function announcerDepsOf(config: CliConfig<"BUS_NAME">) {
  const env: Environment = Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  const level = config.LOG_LEVEL ?? "warn";
  return {
    ...createAnnouncerDeps({ ...env, LOG_LEVEL: level }),
    logger: cliLogger("rewards-announcer", level),
  };
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

export function registerGrants(program: Command): void {
  const grants = program
    .command("grants")
    .description("reward.granted events: read them, and replay the announcer's given-up batches");

  grants
    .command("tail")
    .description(
      "print the reward.granted and reward.revoked events a consumer's queue holds (GRANTS_QUEUE_URL; locally, the queue the local bus fills with EventBridge's envelope), in either shape a rule delivers (the envelope, or the CloudEvent alone with InputPath=$.detail), and remove each batch once it is printed (a failure part-way leaves every unprinted message in the queue); a message it cannot read is reported (message id and why) and left in the queue, visible again at once (exit 1)",
    )
    .option(
      "--max <n>",
      "take at most this many messages from the queue (each receive asks for no more than what is left)",
      integer(1, 1_000_000),
      100,
    )
    .option("--follow", "keep reading as events arrive, until Ctrl-C or --max")
    .option("--keep", "leave them in the queue")
    .option(
      "--json",
      "print one JSON object per event (the CloudEvent as received: every attribute and data field), one per line; each unreadable message as one JSON object ({messageId, problem}) per line on stderr",
    )
    .action(async (options: { max: number; follow?: boolean; keep?: boolean; json?: boolean }) => {
      const config = commandConfig("GRANTS_QUEUE_URL");
      const { sqs } = clientsFor(config);
      const stop = new AbortController();
      if (options.follow) void untilSignal(() => stop.abort());
      // Each batch is printed, and flushed, before any of it is deleted.
      const print = async ({ announcements, unreadable }: GrantsBatch) => {
        if (options.json) {
          await writeFlushed(
            process.stdout,
            announcements.map(({ event }) => `${JSON.stringify(event)}\n`).join(""),
          );
          await writeFlushed(process.stderr, unreadable.map((item) => `${JSON.stringify(item)}\n`).join(""));
          return;
        }
        await writeFlushed(
          process.stdout,
          (announcements.length > 0 ? tableText(announcements.map(announcementRow)) : "") +
            unreadable
              .map(({ messageId, problem }) => `message ${messageId} left in the queue: ${problem}\n`)
              .join(""),
        );
      };
      const received = await receiveGrants(sqs, config.GRANTS_QUEUE_URL, {
        max: options.max,
        waitSeconds: options.follow ? 20 : 1,
        keep: options.keep === true,
        follow: options.follow === true,
        signal: stop.signal,
        onBatch: print,
      });
      for (const { messageId, error } of received.notDeleted)
        process.stderr.write(
          `message ${messageId} printed but not deleted (it will be read again): ${error}\n`,
        );
      if (received.stopped)
        process.stderr.write(
          `rewards: stopped part-way, ${received.stopped}; every message not printed is still in the queue\n`,
        );
      if (received.notReleased)
        process.stderr.write(`rewards: ${received.notReleased} (nothing is lost: they stay in the queue)\n`);
      if (!options.json) {
        if (received.announcements.length === 0 && received.unreadable.length === 0) {
          if (!received.stopped) process.stdout.write("no reward.granted or reward.revoked events waiting\n");
        } else if (received.unreadable.length > 0)
          process.stdout.write(
            `${plural(received.announcements.length, "event")} read; ${plural(received.unreadable.length, "unreadable message")} left in the queue\n`,
          );
      }
      if (
        received.unreadable.length > 0 ||
        received.notDeleted.length > 0 ||
        received.stopped !== undefined ||
        received.notReleased !== undefined
      )
        process.exitCode = 1;
    });

  registerStreamFailureCommands(grants, {
    queue: "ANNOUNCER_FAILURE_QUEUE_URL",
    replayNeeds: "BUS_NAME",
    target: (config) =>
      announcerReplayTarget(announcerDepsOf({ ...config, BUS_NAME: config.BUS_NAME ?? "(dry run)" })),
    replayCommand: "rewards grants replay",
    failures: {
      description:
        "show the announcer's given-up batches (ANNOUNCER_FAILURE_QUEUE_URL): why, and where in the stream, without removing them",
      noneLeft: "no given-up batches: every award was announced",
    },
    replay: {
      description:
        "announce the awards of given-up batches again: read each batch back from the stream (within its 24 hours), publish with the announcer's code, delete the failure record once all are published (harmless to repeat: each award keeps its id)",
      dryRun: "publish nothing; say how many awards each batch holds",
      words: {
        done: "published",
        replayed: "republished",
        wouldReplay: "would republish",
        notAllDone: "not all published",
      },
      pastTheStream:
        "Batches no longer in the stream: announce their awards again from the table with `rewards grants republish --since <their first arrival>`.",
    },
  });

  grants
    .command("republish")
    .description(
      "announce again, from the table, every award committed in a time window (a scan of TABLE_NAME): its reward.granted, and for a revoked award its reward.revoked after it; for batches the stream no longer holds; each event keeps its id",
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
            "of them revoked": report.revoked,
            ...(options.dryRun ? {} : { published: report.published, "not published": report.failed.length }),
            "unreadable guards": report.unreadable.length,
            ...(report.failed[0] ? { "first failure": report.failed[0].reason } : {}),
          });
        if (report.failed.length > 0 || report.unreadable.length > 0) process.exitCode = 1;
      },
    );
}
