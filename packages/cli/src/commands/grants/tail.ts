import { plural } from "@rewards/core";
import type { GrantsBatch } from "@rewards/ops";
import { integer } from "../../options/parsers";
import { defineCommand } from "../../runtime/defineCommand";
import { tailLines, tailTable } from "../../text/grantsTailText";

export default defineCommand<{ max: number; follow?: boolean; keep?: boolean; json?: boolean }>()({
  meta: {
    name: "tail",
    description:
      "print the reward.granted, reward.revoked and reward.achieved events a consumer's queue holds (GRANTS_QUEUE_URL; locally, the queue the local bus fills with EventBridge's envelope), in either shape a rule delivers (the envelope, or the CloudEvent alone with InputPath=$.detail), and remove each batch once it is printed (a failure part-way leaves every unprinted message in the queue); a message it cannot read is reported (message id and why) and left in the queue, visible again at once (exit 1)",
  },
  options: (command) =>
    command
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
      ),
  needs: ["GRANTS_QUEUE_URL"],
  async run({ options, config, io }) {
    const { announcementWords, clientsFor, receiveGrants } = await import("@rewards/ops");
    const { sqs } = clientsFor(config);
    const stop = new AbortController();
    if (options.follow) void io.untilSignal(() => stop.abort());
    // Without --follow, one table for the whole run (rows so far; the unreadable, said after it).
    let rows = 0;
    const after: string[] = [];
    // Each batch is printed, and flushed, before any of it is deleted.
    const print = async ({ announcements, unreadable }: GrantsBatch) => {
      if (options.json) {
        await io.out(announcements.map(({ event }) => `${JSON.stringify(event)}\n`).join(""));
        if (unreadable.length > 0) io.err(unreadable.map((item) => `${JSON.stringify(item)}\n`).join(""));
        return;
      }
      const words = announcements.map(({ announcement }) => announcementWords(announcement));
      const notices = unreadable.map(
        ({ messageId, problem }) => `message ${messageId} left in the queue: ${problem}\n`,
      );
      if (options.follow) return io.out(tailLines(words) + notices.join(""));
      after.push(...notices);
      await io.out((rows === 0 && words.length > 0 ? tailTable.head() : "") + tailTable.rows(words));
      rows += words.length;
    };
    const received = await receiveGrants(sqs, config.GRANTS_QUEUE_URL, {
      max: options.max,
      waitSeconds: options.follow ? 20 : 1,
      keep: options.keep === true,
      follow: options.follow === true,
      signal: stop.signal,
      onBatch: print,
    });
    const warning = [
      ...received.notDeleted.map(
        ({ messageId, error }) =>
          `message ${messageId} printed but not deleted (it will be read again): ${error}\n`,
      ),
      ...(received.stopped
        ? [
            `rewards: stopped part-way, ${received.stopped}; every message not printed is still in the queue\n`,
          ]
        : []),
      ...(received.notReleased
        ? [`rewards: ${received.notReleased} (nothing is lost: they stay in the queue)\n`]
        : []),
    ].join("");
    let out = (rows > 0 ? tailTable.foot() : "") + after.join("");
    if (!options.json) {
      if (received.announcements.length === 0 && received.unreadable.length === 0) {
        if (!received.stopped) out = "no reward.granted, reward.revoked or reward.achieved events waiting\n";
      } else if (received.unreadable.length > 0)
        out += `${plural(received.announcements.length, "event")} read; ${plural(received.unreadable.length, "unreadable message")} left in the queue\n`;
    }
    const failed =
      received.unreadable.length > 0 ||
      received.notDeleted.length > 0 ||
      received.stopped !== undefined ||
      received.notReleased !== undefined;
    return { out, warning, ...(failed ? { exitCode: 1 as const } : {}) };
  },
});
