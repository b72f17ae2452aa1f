import type { FunctionCode } from "@rewards/local";
import { type Command, Option } from "commander";
import { integer } from "./parsers";

/** What addPollerOptions adds, as commander parses it (`rewards worker`, `rewards dev`). */
export interface PollerCliOptions {
  function: FunctionCode;
  pollers: number;
  batchSize: number;
  wait: number;
  window: number;
  timeout: number;
}

export function addPollerOptions(command: Command, { minPollers = 1 } = {}): Command {
  return command
    .option(
      "--pollers <n>",
      minPollers === 0
        ? "concurrent receive loops (0: the stack only, no poller)"
        : "concurrent receive loops",
      integer(minPollers, 100),
      2,
    )
    .option(
      "--batch-size <n>",
      "messages per invocation: 1–10, or up to 10,000 with --window of at least 1000",
      integer(1, 10_000),
      10,
    )
    .option("--wait <seconds>", "long-poll wait per receive", integer(0, 20), 20)
    .option("--window <ms>", "batch window: keep gathering messages this long", integer(0, 300_000), 0)
    .option("--timeout <seconds>", "per-invocation timeout", integer(1, 900), 30)
    .addOption(
      new Option(
        "--function <code>",
        "the function's code: its TypeScript source, or the deployable bundle (npm run build:function)",
      )
        .choices(["source", "artifact"])
        .default("source"),
    );
}

/**
 * `--daily-cap <n>` (rewards worker, rewards dev): the worker's REWARDS_DAILY_XP_CAP; 0 is none,
 * whatever the shell says. Without the option, the shell's REWARDS_DAILY_XP_CAP.
 */
export function dailyCapOption(): Option {
  return new Option(
    "--daily-cap <xp>",
    "the most XP one user earns per UTC day, handed to the worker as REWARDS_DAILY_XP_CAP; 0: no cap (default: REWARDS_DAILY_XP_CAP)",
  ).argParser(integer(0));
}

/** The cap the worker runs with: the option's (0: none), else the shell's variable. */
export function dailyCapOf(option: number | undefined, fromShell: number | undefined): number | undefined {
  if (option === undefined) return fromShell;
  return option > 0 ? option : undefined;
}

/** The same as the variable a function's (or another shell's) environment takes; {} for no cap. */
export function dailyCapEnv(
  option: number | undefined,
  fromShell: number | undefined,
): { REWARDS_DAILY_XP_CAP?: string } {
  const cap = dailyCapOf(option, fromShell);
  return cap === undefined ? {} : { REWARDS_DAILY_XP_CAP: String(cap) };
}

/** The poller's settings from the command line. */
export function pollerSettings(options: PollerCliOptions) {
  return {
    pollers: options.pollers,
    batchSize: options.batchSize,
    waitTimeSeconds: options.wait,
    batchWindowMs: options.window,
    timeoutMs: options.timeout * 1000,
  };
}
