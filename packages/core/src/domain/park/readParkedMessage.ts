import type { Message } from "@aws-sdk/client-sqs";
import { firstSentAtOf } from "../events/eventTime";
import { unwrapEnvelope } from "../events/unwrapEnvelope";
import { PARK_ATTRIBUTES } from "./parkedMessage";
import { PARK_CODES } from "./parkReason";

/**
 * The read half of the DLQ format (parkedMessage.ts writes it): what `rewards dlq` shows,
 * filters on, counts and replays. Pure.
 */

/** The error of a copy SQS's redrive policy moved: it carries no rewards.* attributes. */
export const REDRIVEN = "redriven";
/** Every `error` a parked message can have: a park code, or redriven. */
export const DLQ_ERRORS = [...PARK_CODES, REDRIVEN] as const;

/** A DLQ message as an operator reads it. One redriven by SQS itself has no rewards.* attributes. */
export interface ParkedMessage {
  messageId: string;
  /** The message it is a copy of: several copies of one source are one parked message. */
  sourceMessageId: string;
  error: string;
  reason: string;
  parkedAt: string;
  /**
   * When the event first entered the queue (ISO): the parked copy's `rewards.firstSentAt`, or
   * for a copy the redrive policy moved (it has none), that copy's SentTimestamp. Replay sends it.
   */
  firstSentAt?: string;
  /** Whether the copy carries `rewards.firstSentAt` itself (parked by the worker), not just a SentTimestamp. */
  firstSentAtAttribute: boolean;
  replayCount: number;
  /** The event's type and user, where the body says them (wrapped events unwrapped). */
  type?: string;
  userId?: string;
  receiveCount: number;
  body: string;
}

function eventFields(body: string): { type?: string; userId?: string } {
  try {
    const unwrapped = unwrapEnvelope(JSON.parse(body));
    if (!unwrapped.ok || typeof unwrapped.event !== "object" || unwrapped.event === null) return {};
    const event = unwrapped.event as { type?: unknown; data?: { userId?: unknown } };
    return {
      ...(typeof event.type === "string" ? { type: event.type } : {}),
      ...(typeof event.data?.userId === "string" ? { userId: event.data.userId } : {}),
    };
  } catch {
    return {};
  }
}

function firstSentAt(message: Message, parked: string): { firstSentAt?: string } {
  const known = firstSentAtOf({ firstSentAt: parked, sentTimestamp: message.Attributes?.SentTimestamp });
  return known ? { firstSentAt: new Date(known.ms).toISOString() } : {};
}

/** Everything `rewards dlq` shows, filters on and counts, from one received message. */
export function readParkedMessage(message: Message): ParkedMessage {
  const attribute = (name: string) => message.MessageAttributes?.[name]?.StringValue ?? "";
  const body = message.Body ?? "";
  const fields = eventFields(body);
  const type = attribute("type") || fields.type;
  const messageId = message.MessageId ?? "";
  return {
    messageId,
    sourceMessageId: attribute(PARK_ATTRIBUTES.sourceMessageId) || messageId,
    error: attribute(PARK_ATTRIBUTES.error) || REDRIVEN,
    reason:
      attribute(PARK_ATTRIBUTES.reason) || "moved by the queue's redrive policy after repeated failures",
    parkedAt: attribute(PARK_ATTRIBUTES.parkedAt),
    ...firstSentAt(message, attribute(PARK_ATTRIBUTES.firstSentAt)),
    firstSentAtAttribute: attribute(PARK_ATTRIBUTES.firstSentAt) !== "",
    replayCount: Number(attribute(PARK_ATTRIBUTES.replayCount) || 0),
    ...(type ? { type } : {}),
    ...(fields.userId ? { userId: fields.userId } : {}),
    receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 0),
    body,
  };
}
