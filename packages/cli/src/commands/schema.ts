import {
  eventJsonSchema,
  eventTypes,
  isEventType,
  rewardGrantedJsonSchema,
  rewardRevokedJsonSchema,
} from "@rewards/core";
import type { Command } from "commander";
import { CliError } from "../cliError";
import { printJson } from "../output";

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .description(
      "print the JSON Schema (draft 2020-12) of the events: any reading event, one type, reward.granted or reward.revoked (the files in schemas/, docs/events.md)",
    )
    .argument(
      "[type]",
      `an event type: ${eventTypes.join(", ")}; reward.granted, the event of an award; or reward.revoked`,
    )
    .option("--json", "print JSON (the only form: a JSON Schema is JSON)")
    .action((type: string | undefined) => {
      if (type === "reward.granted") return printJson(rewardGrantedJsonSchema());
      if (type === "reward.revoked") return printJson(rewardRevokedJsonSchema());
      if (type !== undefined && !isEventType(type))
        throw new CliError(
          `unknown type ${JSON.stringify(type)}; one of ${eventTypes.join(", ")}, reward.granted, reward.revoked`,
          2,
        );
      printJson(eventJsonSchema(type));
    });
}
