import { type IncomingMessage, request, type ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { seededRandom } from "@rewards/core";
import { listenOnLoopback } from "./loopbackServer";

/**
 * What a rule does to a request it picks:
 * - `latency`: waits `fixedMs` plus up to `jitterMs`, then goes on (other rules still apply);
 * - `throttle`: HTTP 400 ProvisionedThroughputExceededException (DynamoDB) / ThrottlingException (SQS, EventBridge), not forwarded;
 * - `conflict`: a TransactionCanceledException with reason TransactionConflict, not forwarded;
 * - `http500`: HTTP 500 InternalServerError, not forwarded;
 * - `reset`: the client's connection is destroyed before anything is forwarded;
 * - `commitThenDrop`: forwarded, the answer awaited (the write took effect), then the client's
 *   connection is destroyed — the answer is lost;
 * - `blackHole`: accepted and never answered;
 * - `emptyPage`: (DynamoDB Streams' `GetRecords`) an empty page whose next iterator is the one
 *   asked with, as AWS may answer before the records that follow; not forwarded.
 */
export type FaultKind =
  | "latency"
  | "throttle"
  | "conflict"
  | "http500"
  | "reset"
  | "commitThenDrop"
  | "blackHole"
  | "emptyPage";

export interface FaultRule {
  /** The API operation (`TransactWriteItems`, `SendMessage`, `ReceiveMessage`…), or `*`. */
  operation: string;
  fault: FaultKind;
  /** Chance per matching request, 0–1. */
  probability: number;
  fixedMs?: number;
  jitterMs?: number;
  /** Applied at most this many times (default: no limit). */
  times?: number;
  /** The first this many matching requests pass untouched (a fault part-way: the second receive, say). */
  skip?: number;
}

export interface FaultProxyOptions {
  /** The real endpoint, e.g. the local stack's DynamoDB. */
  target: string;
  rules: readonly FaultRule[];
  /** The same seed and request sequence inject the same faults. */
  seed: number;
  /** Sees each forwarded answer (a test counting redeliveries in ReceiveMessage answers, say). */
  observe?: (operation: string, status: number, body: Buffer) => void;
}

export interface FaultProxy {
  endpoint: string;
  /** Faults applied so far, by kind, and requests forwarded. */
  counts(): Record<FaultKind | "forwarded", number>;
  /** Replaces the rules (e.g. turn faults off for a final drain). */
  setRules(rules: readonly FaultRule[]): void;
  stop(): Promise<void>;
}

/** `DynamoDB_20120810.TransactWriteItems` or `AmazonSQS.SendMessage` → the operation. */
function operationOf(headers: IncomingMessage["headers"]): string {
  const target = headers["x-amz-target"];
  const value = Array.isArray(target) ? target[0] : target;
  return value?.split(".").pop() ?? "";
}

type Service = "dynamodb" | "sqs" | "events";

const ERROR_PREFIX: Record<Service, string> = {
  dynamodb: "com.amazonaws.dynamodb.v20120810#",
  sqs: "com.amazonaws.sqs#",
  events: "",
};

function serviceOf(headers: IncomingMessage["headers"]): Service {
  const target = String(headers["x-amz-target"] ?? "");
  if (target.startsWith("AmazonSQS")) return "sqs";
  return target.startsWith("AWSEvents") ? "events" : "dynamodb";
}

function errorBody(service: Service, type: string, message: string, extra: object = {}): string {
  const prefix = ERROR_PREFIX[service];
  return JSON.stringify({ __type: `${prefix}${type}`, message, ...extra });
}

/** The answer a fault that is not forwarded gives, as the service itself would give it. */
function injectedAnswer(fault: FaultKind, service: Service) {
  switch (fault) {
    case "throttle":
      return service === "dynamodb"
        ? {
            status: 400,
            body: errorBody(
              service,
              "ProvisionedThroughputExceededException",
              "The level of configured provisioned throughput for the table was exceeded (injected)",
            ),
          }
        : { status: 400, body: errorBody(service, "ThrottlingException", "Rate exceeded (injected)") };
    case "conflict":
      return {
        status: 400,
        body: JSON.stringify({
          __type: "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
          Message:
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]",
          CancellationReasons: [
            { Code: "None" },
            { Code: "TransactionConflict", Message: "Transaction is ongoing for the item (injected)" },
          ],
        }),
      };
    default:
      return {
        status: 500,
        body: errorBody(service, "InternalServerError", "Internal server error (injected)"),
      };
  }
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A small HTTP proxy in front of one local service that applies seeded per-request faults,
 * so tests, benchmarks and the demo can show what the emulators never do on their own:
 * throttling, conflicts, 5xx, resets, black holes, and the case the guard exists for — a
 * write that commits while its answer is lost. It listens on loopback only.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = seededRandom(options.seed);
  let rules = [...options.rules];
  let applied = new Map<FaultRule, number>();
  let matched = new Map<FaultRule, number>();
  const counts: Record<FaultKind | "forwarded", number> = {
    latency: 0,
    throttle: 0,
    conflict: 0,
    http500: 0,
    reset: 0,
    commitThenDrop: 0,
    blackHole: 0,
    emptyPage: 0,
    forwarded: 0,
  };

  /** Every rule draws once per request, in order, so a seed gives one sequence of faults. */
  function decide(operation: string): { latencyMs: number; fault?: FaultKind } {
    let latencyMs = 0;
    let fault: FaultKind | undefined;
    for (const rule of rules) {
      if (rule.operation !== "*" && rule.operation !== operation) continue;
      if (rule.fault === "conflict" && operation !== "TransactWriteItems") continue;
      if (rule.fault === "emptyPage" && operation !== "GetRecords") continue;
      const seen = matched.get(rule) ?? 0;
      matched.set(rule, seen + 1);
      if (seen < (rule.skip ?? 0)) continue;
      const draw = random();
      if (draw >= rule.probability) continue;
      if (rule.times !== undefined && (applied.get(rule) ?? 0) >= rule.times) continue;
      if (rule.fault !== "latency" && fault !== undefined) continue;
      applied.set(rule, (applied.get(rule) ?? 0) + 1);
      if (rule.fault === "latency") {
        latencyMs += (rule.fixedMs ?? 0) + Math.floor(random() * (rule.jitterMs ?? 0));
        counts.latency++;
      } else {
        fault = rule.fault;
      }
    }
    return fault ? { latencyMs, fault } : { latencyMs };
  }

  function forward(
    incoming: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: object; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host },
        },
        async (response) => {
          try {
            resolve({
              status: response.statusCode ?? 502,
              headers: response.headers,
              body: await readBody(response),
            });
          } catch (error) {
            reject(error);
          }
        },
      );
      upstream.once("error", reject);
      upstream.end(body);
    });
  }

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    const operation = operationOf(incoming.headers);
    const service = serviceOf(incoming.headers);
    const { latencyMs, fault } = decide(operation);
    if (latencyMs > 0) await delay(latencyMs);
    if (fault) counts[fault]++;
    if (fault === "blackHole") return; // never answered; the socket is closed at stop()
    if (fault === "reset") {
      incoming.socket.destroy();
      return;
    }
    if (fault === "emptyPage") {
      const { ShardIterator } = JSON.parse(body.toString("utf8") || "{}") as { ShardIterator?: string };
      outgoing.writeHead(200, { "content-type": "application/x-amz-json-1.0" });
      outgoing.end(JSON.stringify({ Records: [], NextShardIterator: ShardIterator }));
      return;
    }
    if (fault === "throttle" || fault === "conflict" || fault === "http500") {
      const answer = injectedAnswer(fault, service);
      outgoing.writeHead(answer.status, { "content-type": "application/x-amz-json-1.0" });
      outgoing.end(answer.body);
      return;
    }
    counts.forwarded++;
    let answer: Awaited<ReturnType<typeof forward>>;
    try {
      answer = await forward(incoming, body);
    } catch {
      incoming.socket.destroy();
      return;
    }
    if (fault === "commitThenDrop") {
      incoming.socket.destroy();
      return;
    }
    options.observe?.(operation, answer.status, answer.body);
    outgoing.writeHead(answer.status, answer.headers as Record<string, string>);
    outgoing.end(answer.body);
  }

  const server = await listenOnLoopback(handle);
  return {
    endpoint: server.endpoint,
    counts: () => ({ ...counts }),
    setRules: (next) => {
      rules = [...next];
      applied = new Map();
      matched = new Map();
    },
    stop: () => server.close(),
  };
}
