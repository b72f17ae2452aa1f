import type { ToolConfig } from "@rewards/core/deploy";
import type { Command } from "commander";
import type { ExitCode } from "./cliError";
import { commandConfig, type ToolVariable } from "./commandConfig";
import type { AnyCommand } from "./defineCommand";
import type { Io } from "./io";

/**
 * The configuration, read from the environment when the command first looks at it: a
 * command destructures `config` with its options, and checks its options (a usage error,
 * exit 2) before it needs a variable (a missing one, exit 1), as a person expects.
 */
function lazyConfig(needs: readonly ToolVariable[]): ToolConfig<ToolVariable> {
  let config: ToolConfig<ToolVariable> | undefined;
  const read = () => {
    config ??= commandConfig(...needs);
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
 */
export function attachCommand(
  parent: Command,
  spec: AnyCommand,
  io: Io,
  exit: (code: ExitCode) => void,
): Command {
  const { name, args, summary, description } = spec.meta;
  const command = parent.command(args ? `${name} ${args}` : name).description(description);
  if (summary) command.summary(summary);
  spec.options?.(command);
  const run = spec.run;
  if (run)
    command.action(async () => {
      const needs: ToolVariable[] = [...(spec.needs ?? [])];
      const result = await run({
        options: command.opts(),
        args: command.processedArgs,
        config: lazyConfig(needs),
        configWith: (...more: ToolVariable[]) => commandConfig(...needs, ...more),
        io,
      });
      if (result?.warning) io.err(result.warning);
      if (result?.out) await io.out(result.out);
      if (result?.exitCode !== undefined) exit(result.exitCode);
    });
  return command;
}
