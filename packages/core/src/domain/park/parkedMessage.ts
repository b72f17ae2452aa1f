import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import {
  type Attributes,
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
} from "../events/sqsMessage";
import { type ParkReason, parkReason } from "./parkReason";

/**
 * The DLQ message format: what the worker writes when it parks a message, and what
 * `rewards dlq` reads and replays. Pure.
 */
export const PARK_ATTRIBUTES = {
  error: "rewards.error",
  reason: "rewards.reason",
  sourceMessageId: "rewards.sourceMessageId",
  parkedAt: "rewards.parkedAt",
  /**
   * When the event first entered the queue (ISO): what its age is judged by when it has no
   * `time`. Kept through a replay and a re-park, so a replayed copy never looks new.
   */
  firstSentAt: "rewards.firstSentAt",
  /** The originals that did not fit beside ours, as JSON; replay restores them. */
  overflow: "rewards.overflow",
  /** Set by `rewards dlq replay` on the main queue, kept through a re-park, incremented per replay. */
  replayCount: "rewards.replayCount",
} as const;

const OURS = "rewards.";

/** The message being parked, as it arrived. */
export interface ParkSource {
  body: string;
  messageId: string;
  attributes: Attributes;
  /** Its FIFO message group, if any. */
  groupId?: string | undefined;
  /** When it first entered the queue (ISO), if known: see PARK_ATTRIBUTES.firstSentAt. */
  firstSentAt?: string | undefined;
}

export interface DlqMessage {
  MessageBody: string;
  MessageAttributes: Attributes;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

/** Not even the body with `rewards.error` and `rewards.sourceMessageId` fits in one SQS message. */
export class TooLargeToPark extends Error {
  override readonly name = "TooLargeToPark";
}

/** UTF-8 bytes (Buffer.byteLength's default encoding). */
const utf8 = (text: string) => Buffer.byteLength(text);
const string = (value: string): MessageAttributeValue => ({ DataType: "String", StringValue: value });

/** JSON for `rewards.overflow`: binary values as base64, so they survive the round trip. */
function encodeOverflow(entries: Array<[string, MessageAttributeValue]>): string {
  return JSON.stringify(
    Object.fromEntries(
      entries.map(([name, value]) => [
        name,
        value.BinaryValue !== undefined
          ? { DataType: value.DataType, BinaryValue: Buffer.from(value.BinaryValue).toString("base64") }
          : { DataType: value.DataType, StringValue: value.StringValue },
      ]),
    ),
  );
}

/**
 * The attributes a parked message arrived with, `rewards.overflow` unpacked: what replay
 * sends back, so a replayed message carries exactly its original attributes.
 */
export function originalAttributes(attributes: Attributes): Attributes {
  const originals: Attributes = Object.fromEntries(
    Object.entries(attributes).filter(([name]) => !name.startsWith(OURS)),
  );
  const overflow = attributes[PARK_ATTRIBUTES.overflow]?.StringValue;
  if (!overflow) return originals;
  const parsed = JSON.parse(overflow) as Record<
    string,
    { DataType: string; StringValue?: string; BinaryValue?: string }
  >;
  for (const [name, value] of Object.entries(parsed)) {
    originals[name] =
      value.BinaryValue !== undefined
        ? { DataType: value.DataType, BinaryValue: Buffer.from(value.BinaryValue, "base64") }
        : { DataType: value.DataType, StringValue: value.StringValue };
  }
  return originals;
}

/**
 * What a replayed message is sent with: its original attributes (those kept in
 * `rewards.overflow` restored), a `rewards.replayCount` one higher than before, and
 * `rewards.firstSentAt` — when the event first entered the queue (`firstSentAt`, from the
 * parked copy's attribute or, for a copy the redrive policy moved, its SentTimestamp).
 */
export function replayAttributes(attributes: Attributes, firstSentAt?: string): Attributes {
  const previous = Number(attributes[PARK_ATTRIBUTES.replayCount]?.StringValue ?? 0);
  return {
    ...originalAttributes(attributes),
    [PARK_ATTRIBUTES.replayCount]: { DataType: "Number", StringValue: String((previous || 0) + 1) },
    ...(firstSentAt ? { [PARK_ATTRIBUTES.firstSentAt]: string(firstSentAt) } : {}),
  };
}

/** `text` cut to at most `bytes` UTF-8 bytes on a code point boundary, marked with `…` when cut. */
function clipBytes(text: string, bytes: number): string {
  if (utf8(text) <= bytes) return text;
  let result = "";
  let used = utf8("…");
  for (const char of text) {
    used += utf8(char);
    if (used > bytes) break;
    result += char;
  }
  return bytes >= utf8("…") ? `${result}…` : "";
}

/**
 * The original body and attributes, plus why and when it was parked.
 *
 * Attributes: SQS allows 10. Originals that do not fit beside ours go, as JSON, into
 * `rewards.overflow`. Size: SQS allows 1 MiB for body plus attributes. When everything does
 * not fit, the overflow goes first, then originals from the last, then the reason is
 * shortened (and says what was dropped) — `parkedAt` and `replayCount` go before it would;
 * `firstSentAt` goes only when even without a reason nothing else fits; `rewards.error` and
 * `rewards.sourceMessageId` always go. Throws TooLargeToPark when even those two do not
 * fit: the message is `failed`, and the redrive policy moves it.
 */
export function buildParkedMessage(
  source: ParkSource,
  park: ParkReason,
  now: Date,
  dlqIsFifo: boolean,
): DlqMessage {
  const { body } = source;
  const replayCount = source.attributes[PARK_ATTRIBUTES.replayCount];
  const required: Attributes = {
    [PARK_ATTRIBUTES.error]: string(park.code),
    [PARK_ATTRIBUTES.sourceMessageId]: string(source.messageId),
  };
  let lasting: Attributes = source.firstSentAt
    ? { [PARK_ATTRIBUTES.firstSentAt]: string(source.firstSentAt) }
    : {};
  let extras: Attributes = {
    [PARK_ATTRIBUTES.parkedAt]: string(now.toISOString()),
    ...(replayCount ? { [PARK_ATTRIBUTES.replayCount]: replayCount } : {}),
  };
  const originals = Object.entries(source.attributes).filter(([name]) => !name.startsWith(OURS));
  // One place for the reason, one for the overflow when it is needed.
  const room =
    MAX_MESSAGE_ATTRIBUTES -
    Object.keys(required).length -
    Object.keys(lasting).length -
    Object.keys(extras).length -
    1;
  let direct = originals.length <= room ? originals : originals.slice(0, room - 1);
  let overflow = originals.length <= room ? [] : originals.slice(room - 1);
  const dropped: string[] = [];

  const reasonText = () =>
    dropped.length === 0
      ? park.reason
      : parkReason(park.code, `${park.reason} (dropped to fit SQS's 1 MiB limit: ${dropped.join(", ")})`)
          .reason;
  const assemble = (reason: string | undefined): Attributes => ({
    ...Object.fromEntries(direct),
    ...(overflow.length > 0 ? { [PARK_ATTRIBUTES.overflow]: string(encodeOverflow(overflow)) } : {}),
    ...required,
    ...(reason ? { [PARK_ATTRIBUTES.reason]: string(reason) } : {}),
    ...lasting,
    ...extras,
  });
  const fits = (attributes: Attributes) => messageSize(body, attributes) <= MAX_MESSAGE_BYTES;

  // There is an overflow only beside direct originals, so this runs while anything can go.
  while (direct.length > 0 && !fits(assemble(reasonText()))) {
    if (overflow.length > 0) {
      dropped.push(...overflow.map(([name]) => name));
      overflow = [];
    } else {
      const last = direct.at(-1) as [string, MessageAttributeValue];
      dropped.push(last[0]);
      direct = direct.slice(0, -1);
    }
  }
  /** The reason as long as fits, or none. */
  const withClippedReason = () => {
    const spare = MAX_MESSAGE_BYTES - messageSize(body, assemble(undefined));
    const overhead = utf8(PARK_ATTRIBUTES.reason) + utf8("String");
    return assemble(clipBytes(reasonText(), spare - overhead) || undefined);
  };
  let attributes = withClippedReason();
  if (!attributes[PARK_ATTRIBUTES.reason]) {
    // The reason says more than parkedAt and replayCount: those go before it does.
    extras = {};
    attributes = withClippedReason();
  }
  if (!fits(attributes)) {
    // Without firstSentAt a replay of an event with no time would look new: it goes last.
    lasting = {};
    attributes = withClippedReason();
  }
  if (!fits(attributes)) {
    throw new TooLargeToPark(
      `the body (${utf8(body)} bytes) with rewards.error and rewards.sourceMessageId exceeds SQS's ${MAX_MESSAGE_BYTES}-byte limit`,
    );
  }
  const message: DlqMessage = { MessageBody: body, MessageAttributes: attributes };
  if (dlqIsFifo) {
    message.MessageGroupId = source.groupId ?? "parked";
    message.MessageDeduplicationId = source.messageId;
  }
  return message;
}
