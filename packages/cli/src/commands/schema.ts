import {
  eventJsonSchema,
  eventTypes,
  isEventType,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
} from "@rewards/core";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

export default defineCommand<{ json?: boolean }>()({
  meta: {
    name: "schema",
    description:
      "print the JSON Schema (draft 2020-12) of the events: any reading event, one type, reward.granted or reward.revoked (the files in schemas/, docs/events.md)",
  },
  // The argument is declared here, not in meta.args, so its help describes it as before.
  options: (command) =>
    command
      .argument(
        "[type]",
        `an event type: ${eventTypes.join(", ")}; reward.granted, the event of an award; or reward.revoked`,
      )
      .option("--json", "print JSON (the only form: a JSON Schema is JSON)"),
  async run({ args }) {
    const [type] = args as [string | undefined];
    if (type === "reward.granted") return { out: jsonText(rewardGrantedJsonSchema()) };
    if (type === "reward.revoked") return { out: jsonText(rewardRevokedJsonSchema()) };
    if (type !== undefined && !isEventType(type))
      throw new CliError(
        `unknown type ${JSON.stringify(type)}; one of ${eventTypes.join(", ")}, reward.granted, reward.revoked`,
        2,
      );
    return { out: jsonText(eventJsonSchema(type)) };
  },
});
