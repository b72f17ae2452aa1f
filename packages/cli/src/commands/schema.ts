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
    // A stage's rules in force: its own types' schemas (version 0: the built-in ones, as below).
    let warning: string | undefined;
    if (config.TABLE_NAME !== undefined) {
      const { clientsFor, currentRulesOrFail } = await import("@rewards/ops");
      try {
        const compiled = core.compileVersion(
          await currentRulesOrFail(clientsFor(config).dynamo, config.TABLE_NAME),
        );
        const types = [...compiled.types.values()].filter((rule) => !rule.retired).map((rule) => rule.type);
        if (compiled.version > 0 && type !== undefined && !types.includes(type))
          throw new CliError(
            `unknown type ${quoteInput(type)} in rules version ${compiled.version}; one of ${[...types, ...ANNOUNCEMENTS.keys()].join(", ")}`,
            2,
          );
        if (compiled.version > 0) return { out: jsonText(core.versionEventJsonSchema(compiled, type)) };
      } catch (error) {
        if (error instanceof CliError) throw error;
        const { describeError } = await import("@rewards/core/aws");
        warning = `rewards: the rules in force could not be read (${describeError(error)}): the built-in types' schemas\n`;
      }
    }
    if (type !== undefined && !isEventType(type))
      throw new CliError(
        `unknown type ${quoteInput(type)}; one of ${eventTypes.join(", ")}, ${[...ANNOUNCEMENTS.keys()].join(", ")}`,
        2,
      );
    return { out: jsonText(eventJsonSchema(type)), ...(warning === undefined ? {} : { warning }) };
  },
});
