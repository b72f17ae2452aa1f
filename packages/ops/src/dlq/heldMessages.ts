import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { MAX_BATCH_ENTRIES } from "@rewards/core";
import { sendSqsBatch } from "@rewards/core/aws";

/**
 * Receives up to `max` messages and holds them invisible for `holdSeconds`, so none is
 * read twice in one pass. (Reading raises a DLQ message's receive count, which is harmless:
 * a DLQ has no redrive policy.) A receive that fails part-way releases what was held
 * (best effort) and throws: nothing was consumed.
 */
export async function holdMessages(
  sqs: SQSClient,
  queueUrl: string,
  max: number,
  holdSeconds: number,
): Promise<Message[]> {
  const held: Message[] = [];
  while (held.length < max) {
    let Messages: Message[];
    try {
      ({ Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: Math.min(MAX_BATCH_ENTRIES, max - held.length),
          WaitTimeSeconds: 1,
          VisibilityTimeout: holdSeconds,
          MessageAttributeNames: ["All"],
          MessageSystemAttributeNames: ["All"],
        }),
      ));
    } catch (error) {
      await release(sqs, queueUrl, held).catch(() => {});
      throw error;
    }
    if (Messages.length === 0) break;
    held.push(...Messages);
  }
  return held;
}

/**
 * Releases held messages and says, rather than throws, when some could not be (they are
 * visible again when their hold ends): for a command that has already shown what it read.
 */
export async function releaseReported(
  sqs: SQSClient,
  queueUrl: string,
  messages: readonly Message[],
): Promise<string | undefined> {
  try {
    await release(sqs, queueUrl, messages);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Makes held messages visible again at once (not after their hold). Throws when some could
 * not be: those reappear when their hold ends, so nothing is lost, but the caller says so.
 */
export async function release(sqs: SQSClient, queueUrl: string, messages: readonly Message[]): Promise<void> {
  for (let i = 0; i < messages.length; i += MAX_BATCH_ENTRIES) {
    const { refused, unsent } = await sendSqsBatch(
      messages
        .slice(i, i + MAX_BATCH_ENTRIES)
        .map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })),
      (entries) =>
        sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: entries })),
    );
    const failed = [...refused, ...unsent];
    if (failed.length > 0) {
      throw new Error(
        `${failed.length} held ${failed.length === 1 ? "message" : "messages"} not released (visible again when their hold ends): ${failed[0]?.error}`,
      );
    }
  }
}

export async function deleteHeld(sqs: SQSClient, queueUrl: string, message: Message): Promise<void> {
  await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
}
