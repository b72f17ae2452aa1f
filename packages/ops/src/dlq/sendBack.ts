import { setTimeout as delay } from "node:timers/promises";
import { type Message, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { replayAttributes } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { deleteHeld } from "./heldMessages";

/** Waits so that sends start at most `rate` a second. */
export function pacer(rate: number | undefined) {
  let next = 0;
  return async () => {
    if (!rate) return;
    const wait = next - Date.now();
    if (wait > 0) await delay(wait);
    next = Math.max(next, Date.now()) + 1000 / rate;
  };
}

/** What became of one copy sent back; `error` is the failure's line in the report. */
export type SendBack =
  | { kind: "replayed" }
  | { kind: "notSent"; error: string }
  | { kind: "notDeleted"; error: string };

/**
 * Sends a held copy back to the queue with its original attributes (and `rewards.replayCount`
 * + 1), then deletes it from the DLQ — send first, delete after, so an interruption at any
 * point loses nothing (at worst a message is replayed twice, which the guard makes harmless).
 */
export async function sendBack(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  message: Message,
  firstSentAt: string | undefined,
): Promise<SendBack> {
  try {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: message.Body,
        MessageAttributes: replayAttributes(message.MessageAttributes ?? {}, firstSentAt),
      }),
    );
  } catch (error) {
    return { kind: "notSent", error: `not sent: ${describeError(error)}` };
  }
  try {
    await deleteHeld(sqs, dlqUrl, message);
  } catch (error) {
    return {
      kind: "notDeleted",
      error: `sent, but not deleted from the DLQ (a later replay sends it again, harmlessly): ${describeError(error)}`,
    };
  }
  return { kind: "replayed" };
}
