import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  type MessageAttributeValue,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { originalAttributes, PARK_ATTRIBUTES } from "@rewards/worker";

export interface QueueCounts {
  visible: number;
  inFlight: number;
  delayed: number;
}

export async function queueCounts(sqs: SQSClient, queueUrl: string): Promise<QueueCounts> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
      ],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
    delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0),
  };
}

export interface ParkedMessage {
  messageId: string;
  error: string;
  reason: string;
  sourceMessageId: string;
  parkedAt: string;
  receiveCount: number;
  body: string;
}

/** A DLQ message as an operator reads it; one redriven by SQS itself has no rewards.* attributes. */
export function describeParked(message: Message): ParkedMessage {
  const attribute = (name: string) => message.MessageAttributes?.[name]?.StringValue ?? "";
  return {
    messageId: message.MessageId ?? "",
    error: attribute(PARK_ATTRIBUTES.error) || "redriven",
    reason:
      attribute(PARK_ATTRIBUTES.reason) || "moved by the queue's redrive policy after repeated failures",
    sourceMessageId: attribute(PARK_ATTRIBUTES.sourceMessageId),
    parkedAt: attribute(PARK_ATTRIBUTES.parkedAt),
    receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? 0),
    body: message.Body ?? "",
  };
}

async function receiveBatch(sqs: SQSClient, queueUrl: string, max: number, holdSeconds: number) {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: Math.min(10, max),
      WaitTimeSeconds: 1,
      VisibilityTimeout: holdSeconds,
      MessageAttributeNames: ["All"],
      MessageSystemAttributeNames: ["All"],
    }),
  );
  return Messages;
}

/**
 * Reads up to `max` messages without consuming them: they are held invisible while being
 * read (so none is listed twice) and then made visible again at once.
 */
export async function peekDlq(sqs: SQSClient, dlqUrl: string, max: number): Promise<ParkedMessage[]> {
  const held: Message[] = [];
  while (held.length < max) {
    const batch = await receiveBatch(sqs, dlqUrl, max - held.length, 30);
    if (batch.length === 0) break;
    held.push(...batch);
  }
  for (let i = 0; i < held.length; i += 10) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: dlqUrl,
        Entries: held
          .slice(i, i + 10)
          .map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 })),
      }),
    );
  }
  return held.map(describeParked);
}

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

export interface ReplayReport {
  replayed: number;
  failed: number;
  /** Parked again while this replay ran: left for the next replay, never looped over. */
  skipped: number;
}

/**
 * Moves parked messages back to the main queue, one pass: at most what the DLQ held when
 * the replay started. Send first, delete from the DLQ only after the send succeeded: a
 * crash between the two replays a message twice, which the guard makes harmless.
 */
export async function replayDlq(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  max = Number.POSITIVE_INFINITY,
): Promise<ReplayReport> {
  const startedAt = new Date().toISOString();
  const limit = Math.min(max, (await queueCounts(sqs, dlqUrl)).visible);
  const report: ReplayReport = { replayed: 0, failed: 0, skipped: 0 };
  const seen = () => report.replayed + report.failed + report.skipped;
  while (seen() < limit) {
    const batch = await receiveBatch(sqs, dlqUrl, Math.min(10, limit - seen()), 60);
    if (batch.length === 0) break;
    for (const message of batch) {
      const parkedAt = message.MessageAttributes?.[PARK_ATTRIBUTES.parkedAt]?.StringValue ?? "";
      try {
        if (parkedAt >= startedAt) {
          await sqs.send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: dlqUrl,
              ReceiptHandle: message.ReceiptHandle,
              VisibilityTimeout: 0,
            }),
          );
          report.skipped++;
          continue;
        }
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: message.Body,
            MessageAttributes: replayAttributes(message),
          }),
        );
        await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: message.ReceiptHandle }));
        report.replayed++;
      } catch {
        // Left in the DLQ: it becomes visible again after the hold and can be replayed later.
        report.failed++;
      }
    }
  }
  return report;
}

export async function purgeDlq(sqs: SQSClient, dlqUrl: string): Promise<void> {
  await sqs.send(new PurgeQueueCommand({ QueueUrl: dlqUrl }));
}
