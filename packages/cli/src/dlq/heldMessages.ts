import {
  ChangeMessageVisibilityBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";

/**
 * Receives up to `max` messages and holds them invisible for `holdSeconds`, so none is
 * read twice in one pass. (Reading raises a DLQ message's receive count, which is harmless:
 * a DLQ has no redrive policy.)
 */
export async function holdMessages(
  sqs: SQSClient,
  queueUrl: string,
  max: number,
  holdSeconds: number,
): Promise<Message[]> {
  const held: Message[] = [];
  while (held.length < max) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(10, max - held.length),
        WaitTimeSeconds: 1,
        VisibilityTimeout: holdSeconds,
        MessageAttributeNames: ["All"],
        MessageSystemAttributeNames: ["All"],
      }),
    );
    if (Messages.length === 0) break;
    held.push(...Messages);
  }
  return held;
}

/** Makes held messages visible again at once (not after their hold). */
export async function release(sqs: SQSClient, queueUrl: string, messages: readonly Message[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages
          .slice(i, i + 10)
          .map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })),
      }),
    );
  }
}
