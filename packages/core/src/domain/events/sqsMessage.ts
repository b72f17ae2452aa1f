import type { MessageAttributeValue } from "@aws-sdk/client-sqs";

/** SQS's limits on one message, and on one batch call. */
export const MAX_MESSAGE_ATTRIBUTES = 10;
/** 1 MiB: body plus attributes of one message, and of a whole SendMessageBatch. */
export const MAX_MESSAGE_BYTES = 1_048_576;
export const MAX_BATCH_ENTRIES = 10;

/** Message attributes in the SDK's shape (binary values as bytes). */
export type Attributes = Record<string, MessageAttributeValue>;

/** UTF-8 bytes (Buffer.byteLength's default encoding). */
const utf8 = (text: string) => Buffer.byteLength(text);

/**
 * Bytes SQS counts: the body, and each attribute's name, data type and value. Binary values
 * count as their base64 text (what the JSON protocol carries, and more than the raw bytes),
 * so a message that fits here fits on AWS and on the local emulator alike.
 */
export function messageSize(body: string, attributes: Attributes): number {
  let size = utf8(body);
  for (const [name, value] of Object.entries(attributes)) {
    size += utf8(name) + utf8(value.DataType ?? "");
    if (value.StringValue !== undefined) size += utf8(value.StringValue);
    if (value.BinaryValue !== undefined) size += Math.ceil(value.BinaryValue.length / 3) * 4;
  }
  return size;
}
