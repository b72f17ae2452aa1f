import type { ListedAward } from "@rewards/ops";
import { Option } from "commander";
import { integer } from "../options/parsers";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

interface AwardsOptions {
  type?: string;
  user?: string;
  source?: string;
  since?: Date;
  until?: Date;
  limit?: number;
  from?: string;
  json?: boolean;
  ndjson?: boolean;
}

export default defineCommand<AwardsOptions>()({
  meta: {
    name: "awards",
    description:
      'list the live awards (guards) of an event type or a user, in a window (a scan of TABLE_NAME, paged: --limit and Ctrl-C print a cursor, --from goes on); --ndjson prints {"intentKey": …} lines, the input `rewards revoke` takes',
  },
  options: async (command) => {
    const [{ eventTypes }, { instant }] = await Promise.all([
      import("@rewards/core"),
      import("../options/instant"),
    ]);
    command
      .addOption(new Option("--type <type>", "awards of this event type").choices(eventTypes))
      .option("--user <userId>", "awards of this user (--type, --user or both is required)")
      .option("--source <source>", "refused: a guard does not record its event's source (docs/revoking.md)")
      .option("--since <time>", "committed at or after this instant (RFC 3339, or a date)", instant)
      .option("--until <time>", "and at or before this one", instant)
      .option("--limit <n>", "stop after this many awards, printing the cursor", integer(1))
      .option("--from <cursor>", "go on where a run with the same options stopped")
      .addOption(new Option("--json", "print one JSON document").conflicts("ndjson"))
      .option("--ndjson", 'one {"intentKey": …} line per award, for `rewards revoke`');
  },
  needs: ["TABLE_NAME"],
  async run({ options, config, io }) {
    if (options.source !== undefined)
      throw new CliError("--source: a guard does not record its event's source (docs/revoking.md)", 2);
    if (options.type === undefined && options.user === undefined)
      throw new CliError("name --type, --user or both: a listing of every award is not an undo", 2);
    const ops = await import("@rewards/ops");
    const filter = { type: options.type, userId: options.user, since: options.since, until: options.until };
    const from =
      options.from === undefined ? undefined : ops.readAwardsCursor(options.from, filter, config.TABLE_NAME);
    if (from?.ok === false) throw new CliError(`--from: ${from.reason}`, 2);
    let signal: string | undefined;
    void io.untilSignal((received) => (signal = received));
    const awards: ListedAward[] = [];
    const ndjson = options.ndjson === true;
    const listing = await ops.listAwards(ops.clientsFor(config).dynamo, config.TABLE_NAME, filter, {
      from: from?.key,
      limit: options.limit,
      now: Date.now(),
      // Each page is printed and flushed before the next is read: what a stop leaves unprinted is after the cursor.
      onPage: (page) => (options.json ? void awards.push(...page) : io.out(ops.awardLines(page, ndjson))),
      stop: () => signal !== undefined,
    });
    const stoppedBy = listing.cursor === undefined ? null : (signal ?? "--limit");
    // Stopped by a signal the listing is incomplete, though nothing failed: a script must not take it as whole.
    const exitCode = signal !== undefined && stoppedBy !== null ? { exitCode: 1 as const } : {};
    if (!options.json) return { warning: ops.describeAwards(listing, stoppedBy ?? ""), ...exitCode };
    return { out: jsonText({ awards, ...listing, cursor: listing.cursor ?? null, stoppedBy }), ...exitCode };
  },
});
