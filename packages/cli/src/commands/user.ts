import { profileKey } from "@rewards/core";
import { createDynamoBaseClient, createDynamoClient } from "@rewards/core/aws";
import { createReader, UnreadableItemError } from "@rewards/reader";
import type { Command } from "commander";
import { commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { integer } from "../options";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";
import { profileRepairAdvice } from "../user/profileRepairAdvice";
import { profileText } from "../user/profileText";
import { corruptProfileXp, repairProfileXp, storedProfile } from "../user/repairProfileXp";

interface UserOptions {
  json?: boolean;
  awards: number;
  setXp?: number;
  corruptXp?: string;
  yes?: boolean;
}

export function registerUser(program: Command): void {
  program
    .command("user")
    .description(
      "show a user's profile (XP, level, today's XP against the daily cap) and last awards, through the reader library; or repair its XP",
    )
    .argument("<userId>", "the user id, exactly as in the events")
    .option("--awards <n>", "how many of the last awards to show, 0 to 100", integer(0, 100), 10)
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
      "print JSON: {profile, history}, the reader's objects as they are (or the repair: {userId, from, to}, and awards when it wrote the missing count)",
    )
    .action(async (userId: string, options: UserOptions) => {
      const newXp = options.setXp ?? options.corruptXp;
      if (options.setXp !== undefined && options.corruptXp !== undefined)
        throw new CliError("--set-xp and --corrupt-xp: one or the other", 2);
      if (newXp !== undefined && !options.yes)
        throw new CliError(
          `${options.setXp !== undefined ? "--set-xp" : "--corrupt-xp"} changes a user's XP; add --yes to confirm`,
          2,
        );
      const config = commandConfig("TABLE_NAME");
      if (newXp !== undefined) {
        if (options.corruptXp !== undefined && !config.AWS_ENDPOINT_URL_DYNAMODB)
          throw new CliError(
            "--corrupt-xp is for rehearsals on a local stack: AWS_ENDPOINT_URL_DYNAMODB is not set, so this is AWS",
            2,
          );
        const dynamo = createDynamoClient(config);
        const repair =
          options.setXp === undefined
            ? await corruptProfileXp(dynamo, config.TABLE_NAME, userId, String(options.corruptXp))
            : await repairProfileXp(dynamo, config.TABLE_NAME, userId, options.setXp);
        cliLogger("rewards-user", config.LOG_LEVEL ?? "info").warn(
          repair,
          options.corruptXp === undefined
            ? "profile xp set by an operator"
            : "profile xp corrupted on purpose (a rehearsal)",
        );
        if (options.json) printJson(repair);
        else
          printPairs({
            userId,
            xp: `${JSON.stringify(repair.from)} → ${JSON.stringify(repair.to)}`,
            ...(repair.awards === undefined ? {} : { awards: `${repair.awards.from} → ${repair.awards.to}` }),
          });
        return;
      }
      const reader = createReader({
        tableName: config.TABLE_NAME,
        client: createDynamoBaseClient(config),
        ...(config.REWARDS_DAILY_XP_CAP === undefined ? {} : { dailyCap: config.REWARDS_DAILY_XP_CAP }),
      });
      try {
        const [profile, history] = await Promise.all([
          reader.profile(userId),
          options.awards === 0 ? undefined : reader.history(userId, { limit: options.awards }),
        ]);
        if (options.json) printJson(history === undefined ? { profile } : { profile, history });
        else process.stdout.write(profileText(profile, history));
      } catch (error) {
        if (error instanceof RangeError) throw new CliError(error.message, 2);
        if (error instanceof UnreadableItemError) {
          const advice =
            error.key.sk === profileKey(userId).sk
              ? profileRepairAdvice(
                  userId,
                  await storedProfile(createDynamoClient(config), config.TABLE_NAME, userId),
                )
              : "";
          throw new CliError(`${error.message}${advice}`);
        }
        throw error;
      }
    });
}
