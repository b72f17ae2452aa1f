import { variablesInUse } from "./variablesInUse";

/**
 * One line a person can act on. AWS's own messages often leave out the thing they are about
 * ("Requested resource not found"): name it from the configuration.
 */
export function describeFailure(
  error: unknown,
  env: NodeJS.ProcessEnv = process.env,
  inUse: readonly string[] = variablesInUse(),
): string {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "ResourceNotFoundException")
    return `table ${JSON.stringify(env.TABLE_NAME ?? "")} does not exist here (check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB): ${message}`;
  // The reader library's own error (rewards user reads through it) says it in its callers'
  // words (tableName, the client); here the table came from TABLE_NAME.
  if (name === "TableNotFoundError")
    return `table ${JSON.stringify(env.TABLE_NAME ?? "")} does not exist here (check TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB)`;
  if (name === "QueueDoesNotExist" || name.includes("NonExistentQueue"))
    return `queue does not exist here (check ${queueVariables(inUse)
      .map((variable) => `${variable} ${JSON.stringify(env[variable] ?? "")}`)
      .join(", ")}, AWS_ENDPOINT_URL_SQS): ${message}`;
  const unreachable = unreachableIn(message, env);
  if (unreachable) return unreachable;
  if (name === "CredentialsProviderError")
    return `no AWS credentials (set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; against the local stack, the env \`rewards dev\` prints): ${message}`;
  return message;
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

/** Which configured service lives at `address` (host:port, or a host name), and what to check. */
export function describeUnreachable(code: string, address: string, env: NodeJS.ProcessEnv): string {
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
  return `cannot reach ${service} at ${url} (${what}, from ${variable}): is \`rewards dev\` running? Otherwise check ${variable}`;
}
