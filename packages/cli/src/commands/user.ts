import { integer } from "../options/parsers";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText } from "../runtime/text";
import { profileText } from "../text/profileText";

interface UserOptions {
  json?: boolean;
  awards: number;
  timeZone?: string;
  setXp?: number;
  corruptXp?: string;
  yes?: boolean;
}

export default defineCommand<UserOptions>()({
  meta: {
    name: "user",
    args: "<userId>",
    description:
      "show a user's profile (XP, counts, streak, level, today's XP against the daily cap, this week's XP and rank on the board), achievements and last awards, through the reader library; or repair its XP",
  },
  // Its argument is described here; meta.args names it for the list.
  options: (command) =>
    command
      .argument("<userId>", "the user id, exactly as in the events")
      .option("--awards <n>", "how many of the last awards to show, 0 to 100", integer(0, 100), 10)
      .option(
        "--time-zone <zone>",
        "the IANA time zone the streak's today is read in (e.g. Europe/Paris); UTC when absent",
      )
      .option(
        "--set-xp <n>",
        "repair a profile the worker or the reader refuses: set its xp (and 0 awards where it has none), only if it still holds what was read; a user with no profile is refused",
        integer(0),
      )
      .option(
        "--corrupt-xp <text>",
        "store text as the profile's xp, to rehearse a corrupted profile (local stack only: AWS_ENDPOINT_URL_DYNAMODB set)",
      )
      .option("--yes", "confirm --set-xp or --corrupt-xp")
      .option(
        "--json",
        "print JSON: {profile, history, achievements, historyLag}, the reader's objects as they are, achievements its list, historyLag the profile's awards against the history's standing ones (or the repair: {userId, from, to}, and awards when it wrote the missing count)",
      ),
  needs: ["TABLE_NAME"],
  async run({ options, args, config, io }) {
    const [userId] = args as [string];
    const newXp = options.setXp ?? options.corruptXp;
    if (options.setXp !== undefined && options.corruptXp !== undefined)
      throw new CliError("--set-xp and --corrupt-xp: one or the other", 2);
    if (newXp !== undefined && !options.yes)
      throw new CliError(
        `${options.setXp !== undefined ? "--set-xp" : "--corrupt-xp"} changes a user's XP; add --yes to confirm`,
        2,
      );
    const tableName = config.TABLE_NAME;
    if (newXp !== undefined) {
      if (options.corruptXp !== undefined && !config.AWS_ENDPOINT_URL_DYNAMODB)
        throw new CliError(
          "--corrupt-xp is for rehearsals on a local stack: AWS_ENDPOINT_URL_DYNAMODB is not set, so this is AWS",
          2,
        );
      const { clientsFor, corruptProfileXp, repairProfileXp } = await import("@rewards/ops");
      const { dynamo } = clientsFor(config);
      const repair =
        options.setXp === undefined
          ? await corruptProfileXp(dynamo, tableName, userId, String(options.corruptXp))
          : await repairProfileXp(dynamo, tableName, userId, options.setXp);
      (await io.logger("rewards-user", config.LOG_LEVEL ?? "info")).warn(
        repair,
        options.corruptXp === undefined
          ? "profile xp set by an operator"
          : "profile xp corrupted on purpose (a rehearsal)",
      );
      if (options.json) return { out: jsonText(repair) };
      return {
        out: pairsText({
          userId,
          xp: `${JSON.stringify(repair.from)} → ${JSON.stringify(repair.to)}`,
          ...(repair.awards === undefined ? {} : { awards: `${repair.awards.from} → ${repair.awards.to}` }),
        }),
      };
    }
    const [{ createReader, InvalidReadInput, UnreadableItemError }, { createDynamoBaseClient }, ops] =
      await Promise.all([import("@rewards/reader"), import("@rewards/core/aws"), import("@rewards/ops")]);
    const reader = createReader({
      tableName,
      client: createDynamoBaseClient(config),
      ...(config.REWARDS_DAILY_XP_CAP === undefined ? {} : { dailyCap: config.REWARDS_DAILY_XP_CAP }),
      // The week's rank is read over every shard the history writer fills.
      ...(config.REWARDS_BOARD_SHARDS === undefined ? {} : { boardShards: config.REWARDS_BOARD_SHARDS }),
    });
    try {
      const { timeZone } = options;
      // The history's standing awards before the profile (standingHistoryAwards says why); none with --awards 0.
      const standing =
        options.awards === 0
          ? undefined
          : await ops.standingHistoryAwards(ops.clientsFor(config).dynamo, tableName, userId);
      const [profile, history, { achievements }] = await Promise.all([
        reader.profile(userId, timeZone === undefined ? {} : { timeZone }),
        options.awards === 0 ? undefined : reader.history(userId, { limit: options.awards }),
        reader.achievements(userId),
      ]);
      const historyLag = standing === undefined ? undefined : ops.historyLagOf(profile.awards, standing);
      if (options.json)
        return {
          out: jsonText({ profile, ...(history === undefined ? {} : { history }), achievements, historyLag }),
        };
      const lagLine = historyLag && ops.historyLagLine(historyLag);
      return { out: profileText(profile, history, achievements, timeZone ?? "UTC", lagLine) };
    } catch (error) {
      // The reader judges the zone (docs/reading.md#streaks): its refusal, in the option's name.
      if (error instanceof InvalidReadInput && error.parameter === "timeZone")
        throw new CliError(`--time-zone: ${error.problem}`, 2);
      if (error instanceof RangeError) throw new CliError(error.message, 2);
      if (error instanceof UnreadableItemError) {
        const advice = await ops.unreadableItemAdvice(
          ops.clientsFor(config).dynamo,
          tableName,
          userId,
          error.key,
        );
        throw new CliError(`${error.message}${advice}`);
      }
      throw error;
    }
  },
});
