import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describeIssues, guardKey, intentKey, isEventType, keyPartsOf, rules, toIssues } from "@rewards/core";
import type { Command } from "commander";
import { clientsFor, commandConfig } from "../cliConfig";
import { CliError } from "../cliError";
import { printJson, printPairs } from "../output";

/** `userId=u1 articleSlug=a` → { userId: "u1", articleSlug: "a" }; values may contain `=`. */
function parseFields(fields: readonly string[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (const field of fields) {
    const at = field.indexOf("=");
    if (at <= 0) throw new CliError(`expected field=value, got ${JSON.stringify(field)}`, 2);
    data[field.slice(0, at)] = field.slice(at + 1);
  }
  return data;
}

export function registerGuard(program: Command): void {
  program
    .command("guard")
    .description("show the guard item of an intent: who was paid, how much, for which event, when")
    .argument("<type>", `event type: ${Object.keys(rules).join(", ")}`)
    .argument(
      "<fields...>",
      "the intent's data as field=value, e.g. userId=user123 articleSlug=idempotent-writes",
    )
    .option("--json", "print JSON")
    .action(async (type: string, fields: string[], options: { json?: boolean }) => {
      if (!isEventType(type))
        throw new CliError(
          `unknown type ${JSON.stringify(type)}; one of ${Object.keys(rules).join(", ")}`,
          2,
        );
      const parsed = rules[type].schema.safeParse(parseFields(fields));
      if (!parsed.success) {
        throw new CliError(`invalid fields for ${type}: ${describeIssues(toIssues(parsed.error.issues))}`, 2);
      }
      const key = intentKey(keyPartsOf(type, parsed.data));
      const config = commandConfig("TABLE_NAME");
      const { dynamo } = clientsFor(config);
      const { Item } = await dynamo.send(
        new GetCommand({ TableName: config.TABLE_NAME, Key: guardKey(key), ConsistentRead: true }),
      );
      if (!Item)
        throw new CliError(`no guard for intent ${JSON.stringify(key)}: never paid, or expired and swept`);
      const guard = {
        intentKey: key,
        userId: Item.userId,
        type: Item.type,
        amount: Item.amount,
        eventId: Item.eventId,
        messageId: Item.messageId,
        awardedAt: Item.awardedAt,
        ...(Item.requested === undefined ? {} : { requested: Item.requested }),
        expiresAt:
          typeof Item.expiresAt === "number" ? new Date(Item.expiresAt * 1000).toISOString() : "never",
        // A revoked award's guard stays until it expires, so the intent is not paid again (docs/revoking.md).
        ...(Item.revokedAt === undefined
          ? {}
          : { revokedAt: Item.revokedAt, revokedReason: Item.revokedReason }),
      };
      if (options.json) printJson(guard);
      else printPairs(guard);
    });
}
