/**
 * What an SDK call that failed was: the service, the operation, the table, queue, stream or bus
 * it was about and the endpoint it went to. Every client of ours (`withNamedCalls`) puts this on
 * the error it throws, as `awsCall`, so a timeout or a throttle names what timed out or was
 * throttled; `describeError` prints it and the functions' logs carry it as fields.
 */
export interface AwsCall {
  /** "DynamoDB", "SQS", "DynamoDB Streams", "EventBridge", "CloudWatch". */
  service: string;
  /** The API's operation: "Query", "TransactWriteItems", "ReceiveMessage". */
  operation: string;
  /** "table rewards", "table rewards (index byWeek)", "queue https://…/events", "stream arn:…", "bus rewards"; absent when the input names none. */
  resource?: string;
  /** The client's resolved endpoint: "http://127.0.0.1:43323", "https://dynamodb.us-east-1.amazonaws.com". */
  endpoint?: string;
}

/** An error an SDK client of ours threw: the SDK's own error, unchanged, with the call it was. */
export type WithAwsCall<E = Error> = E & { awsCall: AwsCall };

/** The clients' names as the SDK gives them (context.clientName), in the words AWS's console uses. */
const SERVICES: Record<string, string> = {
  DynamoDBClient: "DynamoDB",
  DynamoDBStreamsClient: "DynamoDB Streams",
  SQSClient: "SQS",
  EventBridgeClient: "EventBridge",
  CloudWatchClient: "CloudWatch",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** "table a" or "tables a, b": the tables a transaction's or a batch's items name. */
function tables(names: Iterable<string>): string | undefined {
  const unique = [...new Set(names)];
  if (unique.length === 0) return undefined;
  return `${unique.length === 1 ? "table" : "tables"} ${unique.join(", ")}`;
}

/** The table names in TransactItems (`[{ Put: { TableName } }, …]`). */
function transactTables(items: unknown[]): string[] {
  return items.flatMap((item) =>
    isRecord(item)
      ? Object.values(item).flatMap((action) => (isRecord(action) ? (text(action.TableName) ?? []) : []))
      : [],
  );
}

/**
 * What a call's input is about, in words: its table (and index), queue, stream or bus. Pure: it
 * reads the input's well-known fields, whatever the service.
 */
export function resourceOf(input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  const table = text(input.TableName);
  if (table) {
    const index = text(input.IndexName);
    return index ? `table ${table} (index ${index})` : `table ${table}`;
  }
  const queue = text(input.QueueUrl) ?? text(input.QueueName);
  if (queue) return `queue ${queue}`;
  const stream = text(input.StreamArn);
  if (stream) return `stream ${stream}`;
  if (Array.isArray(input.TransactItems)) return tables(transactTables(input.TransactItems));
  if (isRecord(input.RequestItems)) return tables(Object.keys(input.RequestItems));
  if (Array.isArray(input.Entries)) {
    const buses = input.Entries.flatMap((entry) => (isRecord(entry) ? (text(entry.EventBusName) ?? []) : []));
    const unique = [...new Set(buses)];
    if (unique.length > 0) return `${unique.length === 1 ? "bus" : "buses"} ${unique.join(", ")}`;
  }
  return undefined;
}

/** "http://127.0.0.1:43323", or with its path when it has one. */
export function endpointText(url: URL): string {
  return url.pathname === "/" ? url.origin : `${url.origin}${url.pathname}`;
}

/** What the SDK's middleware sees of a call: its context and input. */
export interface CallSeen {
  clientName?: string | undefined;
  commandName?: string | undefined;
  endpoint?: URL | undefined;
  input?: unknown;
}

/** The call, in data, from what the middleware saw. */
export function awsCallFrom(seen: CallSeen): AwsCall {
  const clientName = seen.clientName ?? "";
  const service = SERVICES[clientName] ?? (clientName.replace(/Client$/, "") || "AWS");
  const operation = (seen.commandName ?? "").replace(/Command$/, "") || "call";
  const resource = resourceOf(seen.input);
  return {
    service,
    operation,
    ...(resource === undefined ? {} : { resource }),
    ...(seen.endpoint === undefined ? {} : { endpoint: endpointText(seen.endpoint) }),
  };
}

/** "DynamoDB Query on table rewards at http://127.0.0.1:43323". */
export function describeCall(call: AwsCall): string {
  const on = call.resource === undefined ? "" : ` on ${call.resource}`;
  const at = call.endpoint === undefined ? "" : ` at ${call.endpoint}`;
  return `${call.service} ${call.operation}${on}${at}`;
}

function isAwsCall(value: unknown): value is AwsCall {
  return isRecord(value) && typeof value.service === "string" && typeof value.operation === "string";
}

/** The call this error itself is the failure of (not a cause's): undefined when it is none of ours. */
export function ownAwsCall(error: unknown): AwsCall | undefined {
  if (!isRecord(error)) return undefined;
  return isAwsCall(error.awsCall) ? error.awsCall : undefined;
}

/**
 * The call behind this error: its own, else its cause's (a reader's TableNotFoundError, a
 * retry's RetriesExhaustedError, an AwardError wrap the SDK's error), up to a few levels.
 */
export function awsCallOf(error: unknown): AwsCall | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && isRecord(current); depth++) {
    const call = ownAwsCall(current);
    if (call) return call;
    current = current.cause;
  }
  return undefined;
}

/** The part of a client's middleware stack this uses (every SDK v3 client has it). */
interface CallContext {
  clientName?: string;
  commandName?: string;
  endpointV2?: { url: URL };
}
/** An initialize-step middleware, whatever the client's input and output types. */
type Middleware = <A extends { input: unknown }, R>(
  next: (args: A) => Promise<R>,
  context: CallContext,
) => (args: A) => Promise<R>;
interface NamableClient {
  middlewareStack: {
    add(
      middleware: Middleware,
      options: { step: "initialize"; priority: "high"; name: string; override: boolean },
    ): void;
  };
}

/**
 * Names every failed call of `client`: an outermost middleware (the initialize step, so it sees
 * the error after the SDK's own retries) that adds `awsCall` to what is thrown, and throws that
 * same error, so its name, class, `$metadata`, `$retryable` and cancellation reasons are as
 * the SDK made them (classifyError reads those; `instanceof` checks still hold). A document
 * client shares its base client's stack, so naming the base client names its calls too; the
 * input seen then is the document client's own (its TableName, not marshalled).
 */
export function withNamedCalls<C extends NamableClient>(client: C): C {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        // A frozen or primitive throw is passed on as it is; the innermost call's name is kept.
        if (isRecord(error) && ownAwsCall(error) === undefined && Object.isExtensible(error)) {
          const call = awsCallFrom({
            clientName: context.clientName,
            commandName: context.commandName,
            endpoint: context.endpointV2?.url,
            input: args.input,
          });
          Object.assign(error, { awsCall: call });
        }
        throw error;
      }
    },
    { step: "initialize", priority: "high", name: "rewardsNamedCalls", override: true },
  );
  return client;
}

/** `{ call }` for a log line or a result when the error is a failed call's, else nothing: spread it in. */
export function callField(error: unknown): { call?: AwsCall } {
  const call = awsCallOf(error);
  return call === undefined ? {} : { call };
}
