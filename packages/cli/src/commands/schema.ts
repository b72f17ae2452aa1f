import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "schema",
    args: "[type]",
    description:
      "print the JSON Schema (draft 2020-12) of the events: any reading event, one type, reward.granted, reward.revoked or reward.achieved (the files in schemas/, docs/events.md); with TABLE_NAME, the types of the rules in force (docs/rules.md)",
  },
  // Its argument is described here (with the types); meta.args names it for the list.
  options: async (command) => {
    const { eventTypes } = await import("@rewards/core");
    command
      .argument(
        "[type]",
        `an event type: ${eventTypes.join(", ")}; reward.granted, the event of an award; reward.revoked; or reward.achieved, the event of an achievement`,
      )
      .option("--json", "print JSON (the only form: a JSON Schema is JSON)");
  },
  async run({ args, config }) {
    const { eventJsonSchema, eventTypes, isEventType, quoteInput, ...core } = await import("@rewards/core");
    // What the rewards bus publishes, by type (not reading events: producers never send them).
    const ANNOUNCEMENTS = new Map<string, () => Record<string, unknown>>([
      ["reward.granted", core.rewardGrantedJsonSchema],
      ["reward.revoked", core.rewardRevokedJsonSchema],
      ["reward.achieved", core.rewardAchievedJsonSchema],
    ]);
    const [type] = args as [string | undefined];
    const announcement = type === undefined ? undefined : ANNOUNCEMENTS.get(type);
    if (announcement) return { out: jsonText(announcement()) };
    // A stage's rules in force: its own types' schemas (version 0: the built-in ones, below).
    const { clientsFor, schemaInForce } = await import("@rewards/ops");
    const found =
      config.TABLE_NAME === undefined
        ? { kind: "builtin" as const }
        : await schemaInForce(clientsFor(config).dynamo, config.TABLE_NAME, type);
    if (found.kind === "version") return { out: jsonText(found.schema) };
    const known = found.kind === "unknown_type" ? [...found.types, ...ANNOUNCEMENTS.keys()] : [];
    if (found.kind === "unknown_type")
      throw new CliError(
        `unknown type ${quoteInput(String(type))} in rules version ${found.version}; one of ${known.join(", ")}`,
        2,
      );
    const warning =
      found.kind === "unreadable"
        ? `rewards: the rules in force could not be read (${found.why}): the built-in types' schemas\n`
        : undefined;
    if (type !== undefined && !isEventType(type))
      throw new CliError(
        `unknown type ${quoteInput(type)}; one of ${eventTypes.join(", ")}, ${[...ANNOUNCEMENTS.keys()].join(", ")}`,
        2,
      );
    return { out: jsonText(eventJsonSchema(type)), ...(warning === undefined ? {} : { warning }) };
  },
});
