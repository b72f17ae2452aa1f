import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./cliError";
import { COMMANDS, chosenCommand } from "./commandList";

const { version } = createRequire(import.meta.url)("@rewards/cli/package.json") as { version: string };

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `rewards` with no commands. */
export function bareProgram(): Command {
  return new Command()
    .name("rewards")
    .description(
      "Reading rewards, paid exactly once. Targets the local stack when the AWS_ENDPOINT_URL_* variables point at it (`rewards dev` prints them), AWS otherwise.",
    )
    .version(version, "--version", "print the version");
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
 * One line a person can act on. AWS's own messages often leave out the thing they are about
 * ("Requested resource not found"): name it from the configuration.
 */
function describeFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "ResourceNotFoundException")
    return `table ${JSON.stringify(env.TABLE_NAME ?? "")} does not exist here (check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB): ${message}`;
  if (name === "QueueDoesNotExist" || name.includes("NonExistentQueue"))
    return `queue does not exist here (check QUEUE_URL ${JSON.stringify(env.QUEUE_URL ?? "")}, DLQ_URL ${JSON.stringify(env.DLQ_URL ?? "")}, AWS_ENDPOINT_URL_SQS): ${message}`;
  const unreachable = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT) (\S+)/.exec(message);
  if (unreachable) return describeUnreachable(unreachable[1] as string, unreachable[2] as string, env);
  if (name === "CredentialsProviderError")
    return `no AWS credentials (set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; against the local stack, the env \`rewards dev\` prints): ${message}`;
  return message;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "connection timed out",
};

/** Which configured service lives at `address` (host:port, or a host name), and what to check. */
function describeUnreachable(code: string, address: string, env: NodeJS.ProcessEnv): string {
  const services: Array<[string, string, string | undefined]> = [
    ["SQS", "AWS_ENDPOINT_URL_SQS", env.AWS_ENDPOINT_URL_SQS],
    ["DynamoDB", "AWS_ENDPOINT_URL_DYNAMODB", env.AWS_ENDPOINT_URL_DYNAMODB],
    ["SQS", "QUEUE_URL", env.QUEUE_URL],
    ["SQS", "DLQ_URL", env.DLQ_URL],
    ["SQS", "ANNOUNCER_FAILURE_QUEUE_URL", env.ANNOUNCER_FAILURE_QUEUE_URL],
    ["SQS", "GRANTS_QUEUE_URL", env.GRANTS_QUEUE_URL],
    ["SQS", "CONSUMER_QUEUE_URL", env.CONSUMER_QUEUE_URL],
    ["EventBridge", "AWS_ENDPOINT_URL_EVENTBRIDGE", env.AWS_ENDPOINT_URL_EVENTBRIDGE],
    ["DynamoDB Streams", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS", env.AWS_ENDPOINT_URL_DYNAMODB_STREAMS],
  ];
  const hostOf = (url: string) => {
    try {
      const parsed = new URL(url);
      return [parsed.host, parsed.hostname];
    } catch {
      return [];
    }
  };
  const match = services.find(([, , url]) => url !== undefined && hostOf(url).includes(address));
  const what = NETWORK_WORDS[code] ?? code;
  if (!match)
    return `cannot reach ${address} (${what}): check the AWS_ENDPOINT_URL_* variables and the network`;
  const [service, variable, url] = match;
  return `cannot reach ${service} at ${url} (${what}, from ${variable}): is the local stack running (\`npx rewards dev\`)? Otherwise check ${variable}`;
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
