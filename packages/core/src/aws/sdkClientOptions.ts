import { NodeHttpHandler } from "@smithy/node-http-handler";

export interface ClientOptions {
  /** Socket idle limit; long polls need more than their WaitTimeSeconds. */
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
  /** The SDK's own attempts per call; ours sit on top, so keep this small. */
  maxAttempts?: number;
  /** Sockets per host at once (the SDK's default is 50; more calls than that wait in a queue). */
  maxSockets?: number;
}

/**
 * The SDK's own variables, from a consumer's validated configuration. Unset values are left
 * to the SDK's own resolution (its environment variables, profile, instance role).
 */
export interface ClientConfig {
  AWS_REGION?: string | undefined;
  AWS_ENDPOINT_URL_SQS?: string | undefined;
  AWS_ENDPOINT_URL_DYNAMODB?: string | undefined;
  AWS_ENDPOINT_URL_EVENTBRIDGE?: string | undefined;
  AWS_ACCESS_KEY_ID?: string | undefined;
  AWS_SECRET_ACCESS_KEY?: string | undefined;
  AWS_SESSION_TOKEN?: string | undefined;
}

const warned = new Set<string>();

/**
 * The SDK's log: each distinct warning once per process, on stderr; nothing else. (It repeats some on
 * every call — "QueueUrl … differs from SQSClient resolved endpoint" — which says nothing
 * new the second time.)
 */
export const sdkLogger = {
  trace: (..._content: unknown[]) => {},
  debug: (..._content: unknown[]) => {},
  info: (..._content: unknown[]) => {},
  warn: (...content: unknown[]) => {
    const text = content.map(String).join(" ");
    if (warned.has(text)) return;
    warned.add(text);
    process.stderr.write(`${text}\n`);
  },
  // Failed calls are logged here as objects; our code reports its own errors, once, in words.
  error: (..._content: unknown[]) => {},
};

/** Explicit keys when the config has them; otherwise the SDK's default provider chain. */
export function credentials(config: ClientConfig) {
  if (!config.AWS_ACCESS_KEY_ID || !config.AWS_SECRET_ACCESS_KEY) return undefined;
  return {
    accessKeyId: config.AWS_ACCESS_KEY_ID,
    secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
    sessionToken: config.AWS_SESSION_TOKEN,
  };
}

/** What every client of ours shares: bounded SDK retries, real timeouts, a quiet log. */
export function clientDefaults(options: ClientOptions, defaultMaxAttempts: number) {
  return {
    maxAttempts: options.maxAttempts ?? defaultMaxAttempts,
    requestHandler: requestHandler(options),
    logger: sdkLogger,
  };
}

/**
 * Without `throwOnRequestTimeout` the handler only logs that `requestTimeout` passed and
 * keeps waiting; with it, a silent socket fails the attempt (a TimeoutError, transient).
 */
function requestHandler(options: ClientOptions): NodeHttpHandler {
  const agent = options.maxSockets === undefined ? {} : { maxSockets: options.maxSockets, keepAlive: true };
  return new NodeHttpHandler({
    connectionTimeout: options.connectionTimeoutMs ?? 2000,
    requestTimeout: options.requestTimeoutMs ?? 5000,
    throwOnRequestTimeout: true,
    ...(options.maxSockets === undefined ? {} : { httpAgent: agent, httpsAgent: agent }),
  });
}
