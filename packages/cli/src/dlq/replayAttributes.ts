import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import { originalAttributes, PARK_ATTRIBUTES } from "@rewards/worker";

/**
 * What a replayed message is sent with: its original attributes (those kept in
 * `rewards.overflow` restored) and a `rewards.replayCount` one higher than before.
 */
export function replayAttributes(message: Message): Record<string, MessageAttributeValue> {
  const attributes = message.MessageAttributes ?? {};
  const previous = Number(attributes[PARK_ATTRIBUTES.replayCount]?.StringValue ?? 0);
  return {
    ...originalAttributes(attributes),
    [PARK_ATTRIBUTES.replayCount]: { DataType: "Number", StringValue: String((previous || 0) + 1) },
  };
}
