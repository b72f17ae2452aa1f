import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText, pairsText } from "../runtime/text";

/** `userId=u1 articleSlug=a` → { userId: "u1", articleSlug: "a" }; values may contain `=`. `quote`: core's quoteInput. */
function parseFields(fields: readonly string[], quote: (input: unknown) => string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const field of fields) {
    const at = field.indexOf("=");
    if (at <= 0) throw new CliError(`expected field=value, got ${quote(field)}`, 2);
    data[field.slice(0, at)] = field.slice(at + 1);
  }
  return data;
}

/** The guard as `rewards guard` shows it. */
function guardView(key: string, item: Record<string, unknown>): Record<string, unknown> {
  return {
    intentKey: key,
    userId: item.userId,
    type: item.type,
    amount: item.amount,
    eventId: item.eventId,
    messageId: item.messageId,
    awardedAt: item.awardedAt,
    ...(item.requested === undefined ? {} : { requested: item.requested }),
    expiresAt: typeof item.expiresAt === "number" ? new Date(item.expiresAt * 1000).toISOString() : "never",
    // A revoked award's guard stays until it expires, so the intent is not paid again (docs/revoking.md).
    ...(item.revokedAt === undefined ? {} : { revokedAt: item.revokedAt, revokedReason: item.revokedReason }),
  };
}

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "guard",
    args: "<type> <fields...>",
    description: "show the guard item of an intent: who was paid, how much, for which event, when",
  },
  // Its arguments are described here (with the types); meta.args names them for the list.
  options: async (command) => {
    const { rules } = await import("@rewards/core");
    command
      .argument("<type>", `event type: ${Object.keys(rules).join(", ")}, or one the site's rules define`)
      .argument(
        "<fields...>",
        "the intent's data as field=value, e.g. userId=user123 articleSlug=idempotent-writes",
      )
      .option("--json", "print JSON");
  },
  needs: ["TABLE_NAME"],
  async run({ options, args, config }) {
    const [type, fields] = args as [string, string[]];
    const { quoteInput } = await import("@rewards/core");
    const { clientsFor, intentKeyOfFields, KeyFieldsError, readGuard } = await import("@rewards/ops");
    const { dynamo } = clientsFor(config);
    const key = await intentKeyOfFields(
      dynamo,
      config.TABLE_NAME,
      type,
      parseFields(fields, quoteInput),
    ).catch((error) => {
      throw error instanceof KeyFieldsError ? new CliError(error.message, 2) : error;
    });
    const item = await readGuard(dynamo, config.TABLE_NAME, key);
    if (!item) throw new CliError(`no guard for intent ${quoteInput(key)}: never paid, or expired and swept`);
    const guard = guardView(key, item);
    return { out: options.json ? jsonText(guard) : pairsText(guard) };
  },
});
