import type { ToolConfig } from "@rewards/core/deploy";
import { type Command, Option } from "commander";
import type { ExitCode } from "./cliError";
import type { commandConfig, ToolVariable } from "./commandConfig";
import type { AnyCommand } from "./defineCommand";
import type { Io } from "./io";

/**
 * The configuration, read from the environment when the command first looks at it: a
 * command destructures `config` with its options, and checks its options (a usage error,
 * exit 2) before it needs a variable (a missing one, exit 1), as a person expects.
 */
function lazyConfig(
  configOf: typeof commandConfig,
  needs: readonly ToolVariable[],
): ToolConfig<ToolVariable> {
  let config: ToolConfig<ToolVariable> | undefined;
  const read = () => {
    config ??= configOf(...needs);
    return config;
  };
  return new Proxy({} as ToolConfig<ToolVariable>, {
    get: (_target, key) => Reflect.get(read(), key),
    has: (_target, key) => Reflect.has(read(), key),
    ownKeys: () => Reflect.ownKeys(read()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(read(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * Adds `spec` under `parent`: its meta and options, and an action that reads its
 * configuration, runs it and says its result through `io`; its exit code goes to `exit`.
 * `listOnly` (`rewards --help`'s list): its meta and arguments' names alone.
 */
export async function attachCommand(
  parent: Command,
  spec: AnyCommand,
  io: Io,
  exit: (code: ExitCode) => void,
  listOnly = false,
): Promise<Command> {
  const { name, args, summary, description } = spec.meta;
  const command = parent.command(name).description(description);
  if (summary) command.summary(summary);
  if (listOnly) {
    if (args) command.arguments(args);
    // `rewards --help`'s list declares no options (some import a package for them): a hidden one shows `[options]`.
    if (spec.options) command.addOption(new Option("--options").hideHelp());
    return command;
  }
  await spec.options?.(command);
  // Arguments its options describe are declared there; meta.args names them for the list.
  if (args && command.registeredArguments.length === 0) command.arguments(args);
  const run = spec.run;
  if (run)
    command.action(async () => {
      const needs: ToolVariable[] = [...(spec.needs ?? [])];
      // Loaded when a command runs: the configuration's schemas are no cost of --help or --version.
      const { commandConfig: configOf } = await import("./commandConfig");
      const result = await run({
        options: command.opts(),
        args: command.processedArgs,
        config: lazyConfig(configOf, needs),
        configWith: (...more: ToolVariable[]) => configOf(...needs, ...more),
        io,
      });
      if (result?.warning) io.err(result.warning);
      if (result?.out) await io.out(result.out);
      if (result?.exitCode !== undefined) exit(result.exitCode);
    });
  return command;
}
