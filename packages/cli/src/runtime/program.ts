import { createRequire } from "node:module";
import { Command } from "commander";
import { chosenCommand, REGISTRY } from "../registry";
import { attachCommand } from "./attachCommand";
import { EXIT_OK, type ExitCode } from "./cliError";
import { exitCodeFor, valuesQuoted } from "./failure";
import type { Io } from "./io";

const { version } = createRequire(import.meta.url)("@rewards/cli/package.json") as { version: string };

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * The program for `argv`: the command it names with its subcommands, or, with none named
 * (`--help`, `--version`, a misspelling), every top-level command for the list. Options are
 * positional: a command's options are its own, after its name.
 */
export async function buildProgram(
  argv: readonly string[],
  io: Io,
  exit: (code: ExitCode) => void = () => {},
  commanderErr: (text: string) => void = io.err,
): Promise<Command> {
  const program = new Command()
    .name("rewards")
    .description(
      "Reading rewards, paid exactly once. Targets the local stack when the AWS_ENDPOINT_URL_* variables point at it (`rewards dev` prints them), AWS otherwise.",
    )
    .version(version, "--version", "print the version")
    .enablePositionalOptions();
  const chosen = chosenCommand(argv);
  // `rewards --version` lists nothing: no command is loaded for it.
  const listing = chosen ? [chosen] : argv.includes("--version") ? [] : REGISTRY;
  for (const entry of listing) {
    const group = await attachCommand(program, (await entry.load()).default, io, exit, !chosen);
    if (chosen)
      for (const load of entry.verbs ?? []) await attachCommand(group, (await load()).default, io, exit);
  }
  // Set on each command (subcommands do not inherit them): usage errors are one line with a
  // hint, in our own `rewards:` voice, and end in an exit code rather than ending the process.
  const override = (command: Command) => {
    const path = commandPath(command);
    command
      .exitOverride()
      .showHelpAfterError(`(run \`${path} --help\` for usage)`)
      .configureOutput({
        writeOut: (text) => void io.out(text),
        writeErr: commanderErr,
        outputError: (text, write) => write(`rewards: ${text.replace(/^error: /, "")}`),
      });
    command.commands.forEach(override);
  };
  override(program);
  return program;
}

/** argv → the registry's command → run → its output → the exit code. */
export async function runProgram(argv: readonly string[], io: Io): Promise<ExitCode> {
  let code: ExitCode = EXIT_OK;
  // What commander writes on stderr (a usage error and its hint), held until parsing stops: a
  // value it quotes is cut to its first 64 characters first (valuesQuoted).
  const said: string[] = [];
  try {
    const program = await buildProgram(
      argv,
      io,
      (exitCode) => (code = exitCode),
      (text) => said.push(text),
    );
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    return await exitCodeFor(error, io);
  } finally {
    if (said.length > 0) io.err(await valuesQuoted(said.join("")));
  }
}
