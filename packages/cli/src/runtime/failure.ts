import { CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type ExitCode } from "./cliError";
import type { Io } from "./io";

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
