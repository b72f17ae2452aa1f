import { CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type ExitCode } from "./cliError";
import type { Io } from "./io";

/** Where commander quotes a value whole: `option '--x <n>' argument '…' is invalid`, `unknown option '…'`. */
const COMMANDER_QUOTES = [
  /^(rewards: option '[^']*' argument )'([\s\S]*)'( is invalid\.[\s\S]*)$/,
  /^(rewards: command-argument value )'([\s\S]*)'( is invalid for argument [\s\S]*)$/,
  /^(rewards: unknown (?:option|command) )'([\s\S]*?)'(\n[\s\S]*)$/,
];

/** Commander's words with a value it quotes past 64 characters cut as core's quoteInput cuts every input. */
export async function valuesQuoted(said: string): Promise<string> {
  if (!COMMANDER_QUOTES.some((quote) => quote.test(said))) return said;
  const { QUOTED_INPUT_CHARACTERS, quoteInput } = await import("@rewards/core");
  return COMMANDER_QUOTES.reduce(
    (text, quote) =>
      text.replace(quote, (whole, head: string, value: string, tail: string) =>
        [...value].length > QUOTED_INPUT_CHARACTERS ? `${head}${quoteInput(value)}${tail}` : whole,
      ),
    said,
  );
}

/**
 * A thrown error as its one line on stderr and its exit code; a stack trace only with
 * LOG_LEVEL=debug for an error we did not name. The error classes are loaded only when one
 * is thrown, so `rewards --version` loads none of them.
 */
export async function exitCodeFor(error: unknown, io: Io): Promise<ExitCode> {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return EXIT_OK;
    return EXIT_USAGE;
  }
  const [
    { ConfigError, logLevelSchema },
    { FunctionError, LocalStackError, PollerOptionsError },
    { OperationError },
    { TableStreamMissingError },
    { describeFailure },
  ] = await Promise.all([
    import("@rewards/core/deploy"),
    import("@rewards/local"),
    import("@rewards/ops"),
    import("@rewards/core/aws"),
    import("./describeFailure"),
  ]);
  if (error instanceof PollerOptionsError) {
    io.err(`rewards: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const known =
    error instanceof CliError ||
    error instanceof OperationError ||
    error instanceof TableStreamMissingError ||
    error instanceof ConfigError ||
    error instanceof LocalStackError ||
    error instanceof FunctionError;
  io.err(`rewards: ${describeFailure(error)}\n`);
  const level = logLevelSchema.safeParse(process.env.LOG_LEVEL ?? "info");
  if (!known && level.success && (level.data === "debug" || level.data === "trace") && error instanceof Error)
    io.err(`${error.stack}\n`);
  return error instanceof CliError ? error.exitCode : EXIT_FAILURE;
}
