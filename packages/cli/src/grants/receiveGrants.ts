import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { MAX_BATCH_ENTRIES, type RewardGranted, rewardGrantedSchema, sendSqsBatch } from "@rewards/core";
import { release } from "../dlq/heldMessages";

export interface ReceivedGrant {
  messageId?: string | undefined;
  /** Absent when the message is not a reward.granted in EventBridge's envelope (`problem` says why). */
  grant?: RewardGranted;
  problem?: string;
}

/** A grant from the body an EventBridge rule's SQS target receives: the envelope, `detail` the CloudEvent. */
function grantOfMessage(message: Message): ReceivedGrant {
  const base = { messageId: message.MessageId };
  let envelope: { detail?: unknown };
  try {
    envelope = JSON.parse(message.Body ?? "");
  } catch {
    return { ...base, problem: "the body is not JSON" };
  }
  const parsed = rewardGrantedSchema.safeParse(envelope?.detail);
  if (parsed.success) return { ...base, grant: parsed.data };
  const issue = parsed.error.issues[0];
  return { ...base, problem: `not a reward.granted: ${issue?.path.join(".") || "detail"} ${issue?.message}` };
}

export interface ReceiveOptions {
  max: number;
  waitSeconds: number;
  /** Leave the messages in the queue (made visible again at the end). */
  keep: boolean;
  signal?: AbortSignal;
}

/**
 * Reads up to `max` grants from a queue the bus fills, until a receive finds nothing (or
 * `signal` aborts), deleting each batch once read — unless `keep`.
 */
export async function receiveGrants(
  sqs: SQSClient,
  queueUrl: string,
  options: ReceiveOptions,
): Promise<ReceivedGrant[]> {
  const received: ReceivedGrant[] = [];
  const kept: Message[] = [];
  try {
    while (received.length < options.max && !options.signal?.aborted) {
      let Messages: Message[] = [];
      try {
        ({ Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(MAX_BATCH_ENTRIES, options.max - received.length),
            WaitTimeSeconds: options.waitSeconds,
            ...(options.keep ? { VisibilityTimeout: 300 } : {}),
          }),
          options.signal ? { abortSignal: options.signal } : {},
        ));
      } catch (error) {
        if (options.signal?.aborted) break;
        throw error;
      }
      if (Messages.length === 0) break;
      received.push(...Messages.map(grantOfMessage));
      if (options.keep) kept.push(...Messages);
      else
        await sendSqsBatch(
          Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          (entries) => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries })),
        );
    }
  } finally {
    if (kept.length > 0) await release(sqs, queueUrl, kept);
  }
  return received;
}
