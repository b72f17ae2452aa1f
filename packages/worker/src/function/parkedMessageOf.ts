import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import {
  type Attributes,
  buildParkedMessage,
  type DlqMessage,
  firstSentAtOf,
  type ParkReason,
} from "@rewards/core";
import type { SQSMessageAttributes, SQSRecord } from "aws-lambda";
import { queueTimesOf } from "./queueTimes";

/** Lambda's camelCase attribute shape back to the SDK's (binary values arrive base64). */
function toSdkAttributes(attributes: SQSMessageAttributes | undefined): Attributes {
  const result: Attributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    const converted: MessageAttributeValue = { DataType: value.dataType };
    if (value.stringValue !== undefined) converted.StringValue = value.stringValue;
    if (value.binaryValue !== undefined) converted.BinaryValue = Buffer.from(value.binaryValue, "base64");
    result[name] = converted;
  }
  return result;
}

/** The DLQ message that parks a Lambda SQS record: its body, id and attributes in the SDK's shape (the format itself is core's: parkedMessage.ts). */
export function parkedMessageOf(
  record: SQSRecord,
  park: ParkReason,
  now: Date,
  dlqIsFifo: boolean,
): DlqMessage {
  return buildParkedMessage(
    {
      body: record.body,
      messageId: record.messageId,
      attributes: toSdkAttributes(record.messageAttributes),
      groupId: record.attributes.MessageGroupId,
      firstSentAt: isoOf(firstSentAtOf(queueTimesOf(record))?.ms),
    },
    park,
    now,
    dlqIsFifo,
  );
}

const isoOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
