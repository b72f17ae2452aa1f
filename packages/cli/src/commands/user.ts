import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { dayTotalKey, profileKey } from "@rewards/core";
import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { integer } from "../options";
import { printJson, printPairs } from "../output";
import { cliLogger } from "../stdErrLogger";

interface UserOptions {
  json?: boolean;
  setXp?: number;
  corruptXp?: string;
  yes?: boolean;
}

export function registerUser(program: Command): void {
  program
    .command("user")
    .description(
      "show a user's profile: XP, number of awards, last update, and today's XP toward the daily cap; or repair its XP",
    )
    .argument("<userId>", "the user id, exactly as in the events")
    .option(
      "--set-xp <n>",
      "set the profile's xp (to repair one the worker rejects, e.g. a string), only if it still holds what was read",
      integer(0),
    )
    .option(
      "--corrupt-xp <text>",
      "store text as the profile's xp, to rehearse a corrupted profile (local stack only: AWS_ENDPOINT_URL_DYNAMODB set)",
    )
    .option("--yes", "confirm --set-xp or --corrupt-xp")
    .option("--json", "print JSON")
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
      if (options.corruptXp !== undefined && !config.AWS_ENDPOINT_URL_DYNAMODB)
        throw new CliError(
          "--corrupt-xp is for rehearsals on a local stack: AWS_ENDPOINT_URL_DYNAMODB is not set, so this is AWS",
          2,
        );
      const { dynamo } = clientsFor(config);
      const read = async () =>
        (
          await dynamo.send(
            new GetCommand({ TableName: config.TABLE_NAME, Key: profileKey(userId), ConsistentRead: true }),
          )
        ).Item;
      let item = await read();
      if (newXp !== undefined) {
        const before = item?.xp;
        try {
          // Conditional on the value read, so a concurrent award is never overwritten.
          await dynamo.send(
            new UpdateCommand({
              TableName: config.TABLE_NAME,
              Key: profileKey(userId),
              UpdateExpression: "SET xp = :xp, updatedAt = :now",
              ConditionExpression: before === undefined ? "attribute_not_exists(xp)" : "xp = :before",
              ExpressionAttributeValues: {
                ":xp": newXp,
                ":now": new Date().toISOString(),
                ...(before === undefined ? {} : { ":before": before }),
              },
            }),
          );
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException)
            throw new CliError(
              `the profile's xp changed while it was being repaired (was ${JSON.stringify(before)}): nothing written; run again`,
            );
          throw error;
        }
        cliLogger("rewards-user", config.LOG_LEVEL ?? "info").warn(
          { userId, from: before ?? null, to: newXp },
          options.corruptXp === undefined
            ? "profile xp set by an operator"
            : "profile xp corrupted on purpose (a rehearsal)",
        );
        item = await read();
      }
      if (!item)
        throw new CliError(`no profile for user ${JSON.stringify(userId)}: nothing was ever awarded to it`);
      const day = new Date().toISOString().slice(0, 10);
      const dayItem = (
        await dynamo.send(
          new GetCommand({
            TableName: config.TABLE_NAME,
            Key: dayTotalKey(userId, day),
            ConsistentRead: true,
          }),
        )
      ).Item;
      // Without a day item the user earned nothing capped today (or the worker runs without a cap).
      const today = { day, xp: dayItem?.xp ?? 0, dailyCap: config.REWARDS_DAILY_XP_CAP ?? null };
      const profile = { userId, xp: item.xp, awards: item.awards, updatedAt: item.updatedAt };
      if (options.json) printJson({ ...profile, today });
      else printPairs({ ...profile, today: todayLine(today) });
    });
}

/** `2026-12-01: 30 of 50 XP (daily cap)`, or the day's capped XP alone when no cap is set here. */
function todayLine(today: { day: string; xp: unknown; dailyCap: number | null }): string {
  return today.dailyCap === null
    ? `${today.day}: ${String(today.xp)} XP (no daily cap set)`
    : `${today.day}: ${String(today.xp)} of ${today.dailyCap} XP (daily cap)`;
}
