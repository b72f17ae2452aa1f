import type { ToolConfig } from "@rewards/core/deploy";
import type { Command } from "commander";
import type { ExitCode } from "./cliError";
import type { ToolVariable } from "./commandConfig";
import type { Io } from "./io";

export interface CommandMeta {
  /** The word that runs it, after its group's (`replay` in `rewards dlq replay`). */
  name: string;
  /** Its arguments as commander declares them: `[file]`, `<type> <fields...>` (`options` may describe them). */
  args?: string;
  /** Its line in its parent's list, when shorter than its own help's `description`. */
  summary?: string;
  description: string;
}

export interface CommandContext<Options, Needs extends ToolVariable> {
  options: Options;
  /** Its arguments, parsed (a variadic one is an array). */
  args: readonly unknown[];
  /** The environment's configuration with `needs` required; read on first use, so a command that never asks needs none. */
  readonly config: ToolConfig<Needs>;
  /** The same, requiring more: for variables only some options need. */
  configWith<More extends ToolVariable>(...more: More[]): ToolConfig<Needs | More>;
  io: Io;
}

/** What a command leaves to the runtime to say: its warnings (stderr) first, then its result (stdout). */
export interface CommandResult {
  out?: string;
  warning?: string;
  exitCode?: ExitCode;
}

export interface CommandSpec<Options = Record<string, never>, Needs extends ToolVariable = never> {
  meta: CommandMeta;
  /**
   * Declares its options on the commander command (its parsers make a bad value a usage error);
   * async when they need a package (core's types, the deployed defaults): imported here, not atop the file.
   */
  options?(command: Command): unknown;
  /** The variables it cannot run without. */
  needs?: readonly Needs[];
  /** A group with no `run` only lists its subcommands. */
  run?(context: CommandContext<Options, Needs>): Promise<CommandResult | undefined>;
}

// The registry holds commands of every option and variable type; the runtime hands each the
// options commander parsed for it, so `any` here erases what the command's own file checks.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyCommand = CommandSpec<any, any>;

/**
 * A command: `defineCommand<Options>()({ meta, options, needs, run })`. Curried so the
 * options' type is given and the variables' names are inferred from `needs`.
 */
export function defineCommand<Options = Record<string, never>>() {
  return <Needs extends ToolVariable = never>(
    spec: CommandSpec<Options, Needs>,
  ): CommandSpec<Options, Needs> => spec;
}
