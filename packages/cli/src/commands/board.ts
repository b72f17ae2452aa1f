import { integer } from "../options/parsers";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

interface BoardOptions {
  week?: string;
  limit: number;
  cursor?: string;
  json?: boolean;
}

export default defineCommand<BoardOptions>()({
  meta: {
    name: "board",
    description:
      "show a week's board (rank, user, XP: most XP first), one page at a time, through the reader library",
  },
  options: async (command) => {
    const { BOARD_PAGE } = await import("../text/boardText");
    command
      .option("--week <YYYY-Www>", "the ISO week, e.g. 2026-W49; the current week (UTC) when absent")
      .option("--limit <n>", "entries per page, 1 to 100", integer(1, 100), BOARD_PAGE)
      .option("--cursor <cursor>", "the page after the one that printed this cursor")
      .option(
        "--json",
        "print JSON: the reader's page as it is, {week, entries: [{rank, userId, xp}], cursor?}",
      );
  },
  needs: ["TABLE_NAME"],
  async run({ options, config }) {
    const [{ createReader, InvalidReadInput }, { createDynamoBaseClient }, { boardText }] = await Promise.all(
      [import("@rewards/reader"), import("@rewards/core/aws"), import("../text/boardText")],
    );
    const reader = createReader({
      tableName: config.TABLE_NAME,
      client: createDynamoBaseClient(config),
      // The history writer's shard count: the reader's default (32) unless the stage set another.
      ...(config.REWARDS_BOARD_SHARDS === undefined ? {} : { boardShards: config.REWARDS_BOARD_SHARDS }),
    });
    const { week, limit, cursor } = options;
    try {
      const page = await reader.board({
        limit,
        ...(week === undefined ? {} : { week }),
        ...(cursor === undefined ? {} : { cursor }),
      });
      return { out: options.json ? jsonText(page) : boardText(page, limit) };
    } catch (error) {
      // The reader judges the week and the cursor (docs/reading.md#errors): its refusal, in the option's name.
      if (error instanceof InvalidReadInput) throw new CliError(`--${error.parameter}: ${error.problem}`, 2);
      throw error;
    }
  },
});
