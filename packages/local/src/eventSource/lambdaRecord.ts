import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from "aws-lambda";

/** The system attributes Lambda copies into `record.attributes`, in its order. */
const SYSTEM_ATTRIBUTES = [
  "ApproximateReceiveCount",
  "SentTimestamp",
  "SequenceNumber",
  "MessageGroupId",
  "SenderId",
  "MessageDeduplicationId",
  "ApproximateFirstReceiveTimestamp",
  "AWSTraceHeader",
  "DeadLetterQueueSourceArn",
] as const;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

function toLambdaAttribute(value: MessageAttributeValue) {
  return {
    ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
    ...(value.BinaryValue !== undefined ? { binaryValue: base64(value.BinaryValue) } : {}),
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map(base64),
    dataType: value.DataType as string,
  };
}

/** An SQS ReceiveMessage result as Lambda's event source mapping hands it to a function. */
export function toLambdaRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const attributes: Record<string, string> = {};
  for (const name of SYSTEM_ATTRIBUTES) {
    const value = message.Attributes?.[name];
    if (value !== undefined) attributes[name] = value;
  }
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = toLambdaAttribute(value);
  }
  return {
    messageId: message.MessageId as string,
    receiptHandle: message.ReceiptHandle as string,
    body: message.Body ?? "",
    attributes: attributes as unknown as SQSRecordAttributes,
    messageAttributes,
    md5OfBody: message.MD5OfBody as string,
    eventSource: "aws:sqs",
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}
