import { plural } from "@rewards/core";
import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText } from "../../runtime/text";
import { checkErrorCode, ERROR_OPTION_HELP } from "./errorCode";

type PurgeOptions = { error?: string; dryRun?: boolean; export?: string; yes?: boolean; json?: boolean };

export default defineCommand<PurgeOptions>()({
  meta: {
    name: "purge",
    description:
      "delete parked messages for good: every one (SQS's PurgeQueue), or with --error, --dry-run or --export one pass that reads each, exports it and only then deletes it",
  },
  options: (command) =>
    command
      .option("--error <code>", ERROR_OPTION_HELP)
      .option("--dry-run", "delete nothing: count what would go, by reason; all visible again at once")
      .option("--export <file>", "first write all that go (body, attributes) to this new NDJSON file")
      .option("--yes", "confirm: the messages cannot be recovered")
      .option("--json", "print JSON"),
  needs: ["DLQ_URL"],
  async run({ options, config }) {
    checkErrorCode(options.error);
    const which = options.error ? `every message parked for ${options.error}` : "every parked message";
    if (!options.yes && !options.dryRun)
      throw new CliError(`purge deletes ${which} for good; add --yes to confirm`, 2);
    const { clientsFor, describePurge, openExport, purgeMatching, purgeQueue } = await import("@rewards/ops");
    const { sqs } = clientsFor(config);
    if (!options.error && !options.dryRun && !options.export) {
      const { purged } = await purgeQueue(sqs, config.DLQ_URL);
      const words = `${plural(purged, "message")} purged from the DLQ\n`;
      return { out: options.json ? jsonText({ purged }) : words };
    }
    const exported = options.export === undefined ? undefined : await openExport(options.export);
    try {
      const { error, dryRun } = options;
      const report = await purgeMatching(sqs, config.DLQ_URL, { error, dryRun, exportTo: exported?.write });
      const out = options.json ? jsonText(report) : describePurge(report);
      return report.failed > 0 || report.notReleased !== undefined ? { out, exitCode: 1 } : { out };
    } finally {
      await exported?.close();
    }
  },
});
