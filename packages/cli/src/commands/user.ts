import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { profileKey } from "@rewards/core";
import type { Command } from "commander";
import { CliError } from "../cliError";
import { clientsFor, commandConfig } from "../environment";
import { printJson, printPairs } from "../output";

export function registerUser(program: Command): void {
  program
    .command("user")
    .description("show a user's profile: XP, number of awards, last update")
    .argument("<userId>", "the user id, exactly as in the events")
    .option("--json", "print JSON")
    .action(async (userId: string, options: { json?: boolean }) => {
      const config = commandConfig("TABLE_NAME");
      const { dynamo } = clientsFor(config);
      const { Item } = await dynamo.send(
        new GetCommand({ TableName: config.TABLE_NAME, Key: profileKey(userId), ConsistentRead: true }),
      );
      if (!Item)
        throw new CliError(`no profile for user ${JSON.stringify(userId)}: nothing was ever awarded to it`);
      const profile = { userId, xp: Item.xp, awards: Item.awards, updatedAt: Item.updatedAt };
      if (options.json) printJson(profile);
      else printPairs(profile);
    });
}
