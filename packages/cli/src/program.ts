import { ConfigError } from "@rewards/core";
import { LocalStackError } from "@rewards/local";
import { PollerOptionsError } from "@rewards/worker";
import { Command, CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./cliError";
import { registerDemo } from "./commands/demo";
import { registerDev } from "./commands/dev";
import { registerDlq } from "./commands/dlq";
import { registerGuard } from "./commands/guard";
import { registerLoad } from "./commands/load";
import { registerPublish } from "./commands/publish";
import { registerSchema } from "./commands/schema";
import { registerUser } from "./commands/user";
import { registerVerify } from "./commands/verify";
import { registerWorker } from "./commands/worker";

export function buildProgram(): Command {
  const program = new Command()
    .name("rewards")
    .description(
      "Reading rewards, paid exactly once. Targets the local stack when the AWS_ENDPOINT_URL_* variables point at it (`rewards dev` prints them), AWS otherwise.",
    )
    .showHelpAfterError()
    .exitOverride();
  for (const register of [
    registerDemo,
    registerDev,
    registerPublish,
    registerLoad,
    registerVerify,
    registerWorker,
    registerDlq,
    registerGuard,
    registerUser,
    registerSchema,
  ]) {
    register(program);
  }
  // Subcommands inherit exitOverride only when set on each; do it once for all.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
  return program;
}

/** Errors are one line on stderr; a stack trace only with LOG_LEVEL=debug. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return EXIT_OK;
    return EXIT_USAGE;
  }
  if (error instanceof PollerOptionsError) {
    process.stderr.write(`rewards: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const known = error instanceof CliError || error instanceof ConfigError || error instanceof LocalStackError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`rewards: ${message}\n`);
  if (!known && process.env.LOG_LEVEL === "debug" && error instanceof Error)
    process.stderr.write(`${error.stack}\n`);
  return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT_OK;
  } catch (error) {
    return exitCodeFor(error);
  }
}
