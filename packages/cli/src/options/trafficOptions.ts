import { type Command, Option } from "commander";
import { CliError } from "../runtime/cliError";
import { integer, ratio } from "./parsers";

/**
 * The options that shape generated traffic, for `rewards load` and `rewards demo` alike
 * (they differ only in defaults), and the check the shares have to pass together.
 */
/** What addTrafficOptions adds, as commander parses it. */
export interface TrafficOptionValues {
  events: number;
  users: number;
  duplicates: number;
  invalid: number;
  old: number;
}

export function addTrafficOptions(command: Command, defaults: { events: number; old: number }): Command {
  const options = [
    new Option("--events <n>", "messages to send").argParser(integer(1)).default(defaults.events),
    new Option("--users <n>", "distinct users").argParser(integer(1)).default(100),
    new Option("--duplicates <ratio>", "share repeating an earlier intent").argParser(ratio).default(0.25),
    new Option("--invalid <ratio>", "share of poison messages").argParser(ratio).default(0.02),
    new Option(
      "--old <ratio>",
      "share of events dated near and past their rule's memory, or without a time (some stale, never paid)",
    )
      .argParser(ratio)
      .default(defaults.old),
  ];
  for (const option of options) command.addOption(option);
  return command;
}

/** Refuses shares that cannot all be had at once (a usage error, exit 2). */
export function checkTrafficShares(options: { duplicates: number; invalid: number; old: number }): void {
  if (options.duplicates + options.invalid + options.old > 1)
    throw new CliError("--duplicates, --invalid and --old together must not exceed 1", 2);
}
