import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import {
  type EventPattern,
  MAX_PUT_EVENTS_BYTES,
  MAX_PUT_EVENTS_ENTRIES,
  matchesPattern,
  putEventsEntryBytes,
  type SizedEntry,
  seededRandom,
} from "@rewards/core";
import { retry } from "@rewards/core/aws";
import { listenOnLoopback } from "./loopbackServer";

/** What EventBridge hands a rule's target: the envelope around an entry's Detail. */
export interface BusEvent {
  version: "0";
  id: string;
  "detail-type": string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

/** An EventBridge rule with one SQS target. */
export interface BusRule {
  name: string;
  pattern: EventPattern;
  queueUrl: string;
  /** The target's InputPath: `$.detail` delivers the entry's Detail alone; absent, the whole envelope. */
  inputPath?: "$.detail";
}

export interface LocalBusOptions {
  busName: string;
  region: string;
  sqs: SQSClient;
  rules: readonly BusRule[];
  /** Share of entries answered with ThrottlingException instead of being accepted (seeded). */
  entryFailureRate?: number;
  seed?: number;
  /** Sees each accepted event when it arrives, before its delivery (benchmarks, tests). */
  onEvent?: (event: BusEvent, receivedAt: number) => void;
}

export interface LocalBus {
  endpoint: string;
  busName: string;
  busArn: string;
  /** Entries accepted, refused (injected failures, malformed entries) and delivered to targets. */
  counts(): { accepted: number; refused: number; delivered: number; undelivered: number };
  stop(): Promise<void>;
}

const ACCOUNT = "000000000000";

interface Entry extends SizedEntry {
  EventBusName?: unknown;
  Time?: unknown;
}

class BusError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** EventBridge's envelope time: whole seconds, UTC. */
function envelopeTime(time: unknown, now: number): string {
  const ms = typeof time === "number" ? time * 1000 : now;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * The local stand-in for the rewards EventBridge bus: an HTTP endpoint that speaks the one
 * call the announcer makes (PutEvents, JSON 1.1), refuses what EventBridge refuses (more
 * than 10 entries, over 256 KB, another bus, a Detail that is not a JSON object), can fail
 * entries on purpose, and delivers each accepted event, in EventBridge's envelope (or, for a
 * rule with `inputPath: "$.detail"`, its Detail alone), to the SQS queue of every rule it
 * matches — as a rule with an SQS target does on AWS.
 */
export async function startLocalBus(options: LocalBusOptions): Promise<LocalBus> {
  const busArn = `arn:aws:events:${options.region}:${ACCOUNT}:event-bus/${options.busName}`;
  const random = seededRandom(options.seed ?? 1);
  const counts = { accepted: 0, refused: 0, delivered: 0, undelivered: 0 };

  async function deliver(event: BusEvent): Promise<void> {
    for (const rule of options.rules) {
      if (!matchesPattern(event, rule.pattern)) continue;
      try {
        // EventBridge retries a target for up to 24 hours; locally, a few seconds.
        await retry(
          () =>
            options.sqs.send(
              new SendMessageCommand({
                QueueUrl: rule.queueUrl,
                MessageBody: JSON.stringify(rule.inputPath === "$.detail" ? event.detail : event),
              }),
            ),
          {
            shouldRetry: () => true,
            policy: { maxAttempts: 5, baseDelayMs: 50, maxDelayMs: 1000, maxElapsedMs: 5000 },
          },
        );
        counts.delivered++;
      } catch {
        counts.undelivered++;
      }
    }
  }

  async function putEvents(request: { Entries?: Entry[] }) {
    const entries = request.Entries ?? [];
    if (entries.length === 0 || entries.length > MAX_PUT_EVENTS_ENTRIES)
      throw new BusError(
        "ValidationException",
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_PUT_EVENTS_ENTRIES}`,
      );
    if (entries.reduce((n, entry) => n + putEventsEntryBytes(entry), 0) > MAX_PUT_EVENTS_BYTES)
      throw new BusError(
        "ValidationException",
        "Total size of the entries in the request is over the limit.",
      );
    for (const entry of entries) {
      const bus = entry.EventBusName ?? "default";
      if (bus !== options.busName && bus !== busArn)
        throw new BusError("ResourceNotFoundException", `Event bus ${String(bus)} does not exist.`);
    }
    const now = Date.now();
    const accepted: BusEvent[] = [];
    const answers = entries.map((entry) => {
      if (options.entryFailureRate && random() < options.entryFailureRate) {
        counts.refused++;
        return { ErrorCode: "ThrottlingException", ErrorMessage: "Rate exceeded (injected)" };
      }
      let detail: unknown;
      try {
        detail = JSON.parse(String(entry.Detail));
      } catch {
        detail = undefined;
      }
      if (
        typeof entry.Source !== "string" ||
        typeof entry.DetailType !== "string" ||
        typeof detail !== "object" ||
        !detail ||
        Array.isArray(detail)
      ) {
        counts.refused++;
        return { ErrorCode: "MalformedDetail", ErrorMessage: "Detail is malformed." };
      }
      const event: BusEvent = {
        version: "0",
        id: randomUUID(),
        "detail-type": entry.DetailType,
        source: entry.Source,
        account: ACCOUNT,
        time: envelopeTime(entry.Time, now),
        region: options.region,
        resources: Array.isArray(entry.Resources) ? entry.Resources.map(String) : [],
        detail,
      };
      counts.accepted++;
      options.onEvent?.(event, now);
      accepted.push(event);
      return { EventId: event.id };
    });
    // Answered once the targets have the events: a caller that saw success can find them there.
    await Promise.all(accepted.map(deliver));
    return { FailedEntryCount: answers.filter((a) => "ErrorCode" in a).length, Entries: answers };
  }

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const target = String(incoming.headers["x-amz-target"] ?? "");
    const answer = (status: number, body: object) => {
      outgoing.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
      outgoing.end(JSON.stringify(body));
    };
    try {
      if (target !== "AWSEvents.PutEvents")
        throw new BusError(
          "UnknownOperationException",
          `the local bus serves PutEvents only, not ${target || "this request"}`,
        );
      answer(200, await putEvents(JSON.parse(Buffer.concat(chunks).toString() || "{}")));
    } catch (error) {
      const type = error instanceof BusError ? error.type : "InternalException";
      answer(error instanceof BusError ? 400 : 500, { __type: type, message: (error as Error).message });
    }
  }

  const server = await listenOnLoopback(handle);
  return {
    endpoint: server.endpoint,
    busName: options.busName,
    busArn,
    counts: () => ({ ...counts }),
    stop: () => server.close(),
  };
}
