import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./cliError";
import { COMMANDS, chosenCommand } from "./commandList";
import { describeFailure } from "./describeFailure";

const { version } = createRequire(import.meta.url)("@rewards/cli/package.json") as { version: string };

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * `rewards` with no commands. Options are positional: a command's options are its own, after
 * its name (`rewards history replay --json` is replay's --json, not the writer's).
 */
export function bareProgram(): Command {
  return new Command()
    .name("rewards")
    .description(
      "Reading rewards, paid exactly once. Targets the local stack when the AWS_ENDPOINT_URL_* variables point at it (`rewards dev` prints them), AWS otherwise.",
    )
    .version(version, "--version", "print the version")
    .enablePositionalOptions();
}

/**
 * The program with the command `argv` runs, loaded; with none named (`--help`, `--version`,
 * a misspelling), every command as its help line only, which is all commander needs to
 * list them or suggest one (see commandList.ts).
 */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = bareProgram();
  const chosen = chosenCommand(argv);
  if (chosen) (await chosen.load())(program);
  else {
    for (const { name, description } of COMMANDS) program.command(name).description(description);
    const terms = new Map(COMMANDS.map(({ name, term }) => [name, term]));
    const help = program.createHelp();
    program.configureHelp({
      subcommandTerm: (command) => terms.get(command.name()) ?? help.subcommandTerm(command),
    });
  }
  // Set on each command (subcommands do not inherit them): usage errors are one line with
  // a hint, in our own `rewards:` voice, and end in an exit code rather than process.exit.
  const override = (command: Command) => {
    const path = commandPath(command);
    command
      .exitOverride()
      .showHelpAfterError(`(run \`${path} --help\` for usage)`)
      .configureOutput({ outputError: (text, write) => write(`rewards: ${text.replace(/^error: /, "")}`) });
    command.commands.forEach(override);
  };
  override(program);
  return program;
}

/**
 * Errors are one line on stderr; a stack trace only with LOG_LEVEL=debug. Beyond commander's
 * own, the error classes are loaded only when one is thrown (see buildProgram).
 */
async function exitCodeFor(error: unknown): Promise<number> {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return EXIT_OK;
    return EXIT_USAGE;
  }
  const [{ ConfigError, logLevelSchema }, { FunctionError, LocalStackError, PollerOptionsError }] =
    await Promise.all([import("@rewards/core/deploy"), import("@rewards/local")]);
  if (error instanceof PollerOptionsError) {
    process.stderr.write(`rewards: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const known =
    error instanceof CliError ||
    error instanceof ConfigError ||
    error instanceof LocalStackError ||
    error instanceof FunctionError;
  process.stderr.write(`rewards: ${describeFailure(error)}\n`);
  const level = logLevelSchema.safeParse(process.env.LOG_LEVEL ?? "info");
  if (!known && level.success && (level.data === "debug" || level.data === "trace") && error instanceof Error)
    process.stderr.write(`${error.stack}\n`);
  return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT_OK;
  } catch (error) {
    return await exitCodeFor(error);
  }
}
