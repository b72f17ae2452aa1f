import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { type ParkReason, parkReason } from "@rewards/core";
import type { SQSMessageAttributes, SQSRecord } from "aws-lambda";

/** SQS's limit on message attributes per message. */
export const MAX_MESSAGE_ATTRIBUTES = 10;

export const PARK_ATTRIBUTES = {
  error: "rewards.error",
  reason: "rewards.reason",
  sourceMessageId: "rewards.sourceMessageId",
  parkedAt: "rewards.parkedAt",
} as const;

export interface DlqMessage {
  MessageBody: string;
  MessageAttributes: Record<string, MessageAttributeValue>;
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

/** Lambda's camelCase attribute shape back to the SDK's (binary values arrive base64). */
export function toSdkAttributes(
  attributes: SQSMessageAttributes | undefined,
): Record<string, MessageAttributeValue> {
  const result: Record<string, MessageAttributeValue> = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    const converted: MessageAttributeValue = { DataType: value.dataType };
    if (value.stringValue !== undefined) converted.StringValue = value.stringValue;
    if (value.binaryValue !== undefined) converted.BinaryValue = Buffer.from(value.binaryValue, "base64");
    result[name] = converted;
  }
  return result;
}

/**
 * SPEC §7: the original body and attributes, plus why and when it was parked. Should the
 * original carry so many attributes that ours would not fit, the extra originals are
 * named in the reason instead of failing the send (which would loop until redrive).
 */
export function buildDlqMessage(
  record: SQSRecord,
  park: ParkReason,
  now: Date,
  dlqIsFifo: boolean,
): DlqMessage {
  const originals = Object.entries(toSdkAttributes(record.messageAttributes)).filter(
    ([name]) => !name.startsWith("rewards."),
  );
  const room = MAX_MESSAGE_ATTRIBUTES - Object.keys(PARK_ATTRIBUTES).length;
  const dropped = originals.slice(room).map(([name]) => name);
  // parkReason clips to the 1,000-character limit, suffix included.
  const { reason } =
    dropped.length > 0
      ? parkReason(park.code, `${park.reason} (attributes not copied: ${dropped.join(", ")})`)
      : park;
  const message: DlqMessage = {
    MessageBody: record.body,
    MessageAttributes: {
      ...Object.fromEntries(originals.slice(0, room)),
      [PARK_ATTRIBUTES.error]: { DataType: "String", StringValue: park.code },
      [PARK_ATTRIBUTES.reason]: { DataType: "String", StringValue: reason },
      [PARK_ATTRIBUTES.sourceMessageId]: { DataType: "String", StringValue: record.messageId },
      [PARK_ATTRIBUTES.parkedAt]: { DataType: "String", StringValue: now.toISOString() },
    },
  };
  if (dlqIsFifo) {
    message.MessageGroupId = record.attributes?.MessageGroupId ?? "parked";
    message.MessageDeduplicationId = record.messageId;
  }
  return message;
}
