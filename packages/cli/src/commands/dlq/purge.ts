import { CliError } from "../../runtime/cliError";
import { defineCommand } from "../../runtime/defineCommand";
import { jsonText, plural } from "../../runtime/text";

export default defineCommand<{ yes?: boolean; json?: boolean }>()({
  meta: { name: "purge", description: "delete every parked message for good" },
  options: (command) =>
    command.option("--yes", "confirm: the messages cannot be recovered").option("--json", "print JSON"),
  needs: ["DLQ_URL"],
  async run({ options, config }) {
    if (!options.yes)
      throw new CliError("purge deletes every parked message for good; add --yes to confirm", 2);
    const { clientsFor, purgeQueue } = await import("@rewards/ops");
    const { purged } = await purgeQueue(clientsFor(config).sqs, config.DLQ_URL);
    return {
      out: options.json ? jsonText({ purged }) : `${plural(purged, "message")} purged from the DLQ\n`,
    };
  },
});
