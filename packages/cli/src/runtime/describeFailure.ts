import { type AwsCall, awsCallOf, describeCall, describeError, ownAwsCall } from "@rewards/core/aws";
import { variablesInUse } from "./variablesInUse";

/**
 * One line a person can act on. An SDK call's failure is led by the call (`withNamedCalls`):
 * "DynamoDB Query on table rewards at http://127.0.0.1:43323: timed out after 5000 ms
 * (requestTimeout)". AWS's own messages often leave out the thing they are about ("Requested
 * resource not found"): name it, and the variable to check. Loaded only when a command fails.
 */
export function describeFailure(
  error: unknown,
  env: NodeJS.ProcessEnv = process.env,
  inUse: readonly string[] = variablesInUse(),
): string {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  const call = awsCallOf(error);
  const about = call === undefined ? "" : `${describeCall(call)}: `;
  // The reader library's own error (rewards user reads through it) says it in its callers'
  // words (tableName, the client); here the table came from TABLE_NAME.
  if (name === "ResourceNotFoundException" || name === "TableNotFoundError") {
    const check = "(check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB)";
    if (call !== undefined) return `${about}${notFound(call)} ${check}`;
    const said = name === "TableNotFoundError" ? "" : `: ${message}`;
    return `table ${JSON.stringify(env.TABLE_NAME ?? "")} does not exist here ${check}${said}`;
  }
  if (name === "QueueDoesNotExist" || name.includes("NonExistentQueue")) {
    const variables = queueVariables(inUse);
    if (call !== undefined)
      return `${about}no such queue (check ${variables.join(", ")}, AWS_ENDPOINT_URL_SQS)`;
    return `queue does not exist here (check ${variables
      .map((variable) => `${variable} ${JSON.stringify(env[variable] ?? "")}`)
      .join(", ")}, AWS_ENDPOINT_URL_SQS): ${message}`;
  }
  const network = UNREACHABLE.exec(message);
  if (network && call !== undefined)
    return `${about}${unreachableHint(network[1] as string, network[2] as string, env)}`;
  const unreachable = unreachableIn(message, env);
  if (unreachable) return unreachable;
  if (name === "CredentialsProviderError")
    return `${about}no AWS credentials (set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; against the local stack, the env \`rewards dev\` prints): ${message}`;
  if (call === undefined) return message;
  if (ownAwsCall(error) !== undefined) return describeError(error);
  // A wrapper of a failed call (a retry's "gave up after 3 attempts"): its words, then the call's.
  return message.includes(describeCall(call))
    ? message
    : `${message}: ${describeError(causeWith(error, call))}`;
}

/** The error in `error`'s cause chain that carries `call`. */
function causeWith(error: unknown, call: AwsCall): unknown {
  let current = error;
  while (typeof current === "object" && current !== null && ownAwsCall(current) !== call)
    current = (current as { cause?: unknown }).cause;
  return current;
}

/** What was not found, from what the call was about. */
function notFound(call: AwsCall): string {
  if (call.resource?.startsWith("table")) return "no such table";
  if (call.resource?.startsWith("stream")) return "no such stream";
  return "not found";
}

/**
 * The queue variables the command asked for (grants tail: GRANTS_QUEUE_URL; dlq replay:
 * QUEUE_URL and DLQ_URL), so the message names the one the queue came from; when the
 * command named none, the two the CLI reads most.
 */
function queueVariables(inUse: readonly string[]): string[] {
  const queues = inUse.filter((variable) => variable === "DLQ_URL" || variable.endsWith("QUEUE_URL"));
  return queues.length > 0 ? queues : ["QUEUE_URL", "DLQ_URL"];
}

const UNREACHABLE = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT) (\S+)/;

/** A network failure in `message` as one line naming the endpoint and its variable; undefined when it is none. */
export function unreachableIn(message: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const unreachable = UNREACHABLE.exec(message);
  return unreachable
    ? describeUnreachable(unreachable[1] as string, unreachable[2] as string, env)
    : undefined;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "connection timed out",
};

/** The configured service at `address` (host:port, or a host name): its name, variable and URL. */
function serviceAt(address: string, env: NodeJS.ProcessEnv): [string, string, string] | undefined {
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
  return match === undefined ? undefined : [match[0], match[1], match[2] as string];
}

/** After the call's name (which says where): what happened and which variable to check. */
function unreachableHint(code: string, address: string, env: NodeJS.ProcessEnv): string {
  const what = NETWORK_WORDS[code] ?? code;
  const match = serviceAt(address, env);
  if (!match) return `${what}: check the AWS_ENDPOINT_URL_* variables and the network`;
  const [, variable] = match;
  return `${what} (from ${variable}): is \`rewards dev\` running? Otherwise check ${variable}`;
}

/** Which configured service lives at `address` (host:port, or a host name), and what to check. */
export function describeUnreachable(code: string, address: string, env: NodeJS.ProcessEnv): string {
  const what = NETWORK_WORDS[code] ?? code;
  const match = serviceAt(address, env);
  if (!match)
    return `cannot reach ${address} (${what}): check the AWS_ENDPOINT_URL_* variables and the network`;
  const [service, variable, url] = match;
  return `cannot reach ${service} at ${url} (${what}, from ${variable}): is \`rewards dev\` running? Otherwise check ${variable}`;
}
