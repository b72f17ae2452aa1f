import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { type Announcement, MAX_BATCH_ENTRIES, type RewardGranted } from "@rewards/core";
import { sendSqsBatch } from "@rewards/core/aws";
import { release } from "../dlq/heldMessages";
import { type AnnouncementShape, readAnnouncement } from "./readAnnouncement";

export interface ReceivedAnnouncement {
  messageId: string;
  announcement: Announcement;
  shape: AnnouncementShape;
}

/** A message that holds no announcement: reported, and left in the queue. */
export interface UnreadableMessage {
  messageId: string;
  problem: string;
}

export interface ReceivedGrants {
  /** In the order received. */
  announcements: ReceivedAnnouncement[];
  unreadable: UnreadableMessage[];
  /** Read, but the delete was refused: they come back when their hold ends (consumers deduplicate on id). */
  notDeleted: Array<{ messageId: string; error: string }>;
}

export interface ReceiveOptions {
  max: number;
  waitSeconds: number;
  /** Leave every message in the queue (visible again at the end). */
  keep: boolean;
  signal?: AbortSignal;
  /** Called with each batch as it is read (for --follow). */
  onBatch?: (batch: Pick<ReceivedGrants, "announcements" | "unreadable">) => void;
}

/**
 * While one pass runs, what it leaves is held invisible so that it reads each message once;
 * a pass killed without releasing them leaves them hidden no longer than this.
 */
const HOLD_SECONDS = 30;

/** The reward.granted events among what was received (the demo and the soak check them). */
export const grantsAmong = (received: ReceivedGrants): RewardGranted[] =>
  received.announcements.flatMap(({ announcement }) =>
    announcement.type === "reward.granted" ? [announcement] : [],
  );

/**
 * Reads up to `max` announcements (reward.granted, reward.revoked, in either shape a rule
 * delivers) from a consumer's queue until a receive finds nothing (or `signal` aborts). Only
 * what it read is deleted (and nothing with `keep`); a message it cannot read is reported and
 * left, made visible again at once when the pass ends.
 */
export async function receiveGrants(
  sqs: SQSClient,
  queueUrl: string,
  options: ReceiveOptions,
): Promise<ReceivedGrants> {
  const received: ReceivedGrants = { announcements: [], unreadable: [], notDeleted: [] };
  // By message id: one re-received after its hold (a long --follow) is held again, not reported twice.
  const held = new Map<string, Message>();
  try {
    while (received.announcements.length < options.max && !options.signal?.aborted) {
      let Messages: Message[] = [];
      try {
        ({ Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(MAX_BATCH_ENTRIES, options.max - received.announcements.length),
            WaitTimeSeconds: options.waitSeconds,
            VisibilityTimeout: HOLD_SECONDS,
          }),
          options.signal ? { abortSignal: options.signal } : {},
        ));
      } catch (error) {
        if (options.signal?.aborted) break;
        throw error;
      }
      if (Messages.length === 0) break;
      const batch: Pick<ReceivedGrants, "announcements" | "unreadable"> = {
        announcements: [],
        unreadable: [],
      };
      const read: Message[] = [];
      for (const message of Messages) {
        const messageId = message.MessageId ?? "";
        const seen = held.has(messageId);
        const result = readAnnouncement(message.Body ?? "");
        if (result.ok) {
          if (!seen)
            batch.announcements.push({ messageId, announcement: result.announcement, shape: result.shape });
          if (options.keep) held.set(messageId, message);
          else read.push(message);
        } else {
          if (!seen) batch.unreadable.push({ messageId, problem: result.problem });
          held.set(messageId, message);
        }
      }
      if (read.length > 0) {
        const { refused, unsent } = await sendSqsBatch(
          read.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          (entries) => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries })),
        );
        for (const failure of [...refused, ...unsent]) {
          received.notDeleted.push({
            messageId: read[Number(failure.entry.Id)]?.MessageId ?? "",
            error: failure.error,
          });
        }
      }
      received.announcements.push(...batch.announcements);
      received.unreadable.push(...batch.unreadable);
      options.onBatch?.(batch);
    }
  } finally {
    if (held.size > 0) await release(sqs, queueUrl, [...held.values()]);
  }
  return received;
}
