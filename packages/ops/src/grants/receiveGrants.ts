import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { type Announcement, MAX_BATCH_ENTRIES, type RewardAchieved, type RewardGranted } from "@rewards/core";
import { describeError, sendSqsBatch } from "@rewards/core/aws";
import { release } from "../dlq/heldMessages";
import { type AnnouncementShape, readAnnouncement } from "./readAnnouncement";

export interface ReceivedAnnouncement {
  messageId: string;
  /** Validated: the fields its schema knows. */
  announcement: Announcement;
  /** The CloudEvent as received (every attribute and field): what --json prints. */
  event: Record<string, unknown>;
  shape: AnnouncementShape;
}

/** A message that holds no announcement: reported, and left in the queue. */
export interface UnreadableMessage {
  messageId: string;
  problem: string;
}

export type GrantsBatch = Pick<ReceivedGrants, "announcements" | "unreadable">;

export interface ReceivedGrants {
  /** In the order received. */
  announcements: ReceivedAnnouncement[];
  unreadable: UnreadableMessage[];
  /** Shown, but the delete was refused: they come back when their hold ends (consumers deduplicate on id). */
  notDeleted: Array<{ messageId: string; error: string }>;
  /** Why the pass stopped early (a receive failed, or showing a batch did): nothing unshown was deleted. */
  stopped?: string | undefined;
  /** Held messages not made visible again at once (they are when their hold ends). */
  notReleased?: string | undefined;
}

export interface ReceiveOptions {
  /** At most this many messages received in all (readable or not): each receive asks for at most what is left. */
  max: number;
  waitSeconds: number;
  /** Leave every message in the queue (visible again at the end). */
  keep: boolean;
  /** Keep receiving when a receive finds nothing (until `signal` aborts or `max` is reached). */
  follow?: boolean;
  signal?: AbortSignal;
  /**
   * Shows each batch (prints it, or keeps it) before any of it is deleted: the batch's
   * messages are deleted only once it resolves, and none of them if it throws.
   */
  onBatch?: (batch: GrantsBatch) => void | Promise<void>;
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

/** The reward.achieved events among what was received (the demo and the soak check them). */
export const achievedAmong = (received: ReceivedGrants): RewardAchieved[] =>
  received.announcements.flatMap(({ announcement }) =>
    announcement.type === "reward.achieved" ? [announcement] : [],
  );

/** Pure: how many messages the next receive may ask for, so that the pass never takes more than `max`. */
export const receiveSize = (max: number, taken: number): number =>
  Math.max(0, Math.min(MAX_BATCH_ENTRIES, max - taken));

/** Pure: one received batch read, each message told apart by whether it may be deleted once shown. */
export function readBatch(messages: readonly Message[], seen: ReadonlySet<string>, keep: boolean) {
  const batch: GrantsBatch = { announcements: [], unreadable: [] };
  const deletable: Message[] = [];
  const hold: Message[] = [];
  for (const message of messages) {
    const messageId = message.MessageId ?? "";
    const again = seen.has(messageId);
    const result = readAnnouncement(message.Body ?? "");
    if (result.ok) {
      if (!again)
        batch.announcements.push({
          messageId,
          announcement: result.announcement,
          event: result.event,
          shape: result.shape,
        });
      (keep ? hold : deletable).push(message);
    } else {
      if (!again) batch.unreadable.push({ messageId, problem: result.problem });
      hold.push(message);
    }
  }
  return { batch, deletable, hold };
}

async function deleteShown(sqs: SQSClient, queueUrl: string, shown: readonly Message[]) {
  const { refused, unsent } = await sendSqsBatch(
    shown.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
    (entries) => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries })),
  );
  return [...refused, ...unsent].map((failure) => ({
    messageId: shown[Number(failure.entry.Id)]?.MessageId ?? "",
    error: failure.error,
  }));
}

/**
 * Reads announcements (reward.granted, reward.revoked, reward.achieved, in either shape a rule delivers) from
 * a consumer's queue, at most `max` messages, until a receive finds nothing (unless
 * `follow`) or `signal` aborts. Each batch is shown (`onBatch`) before any of it is deleted,
 * and only what was shown is deleted (nothing with `keep`): a failure or a kill part-way
 * leaves every unshown message in the queue. A message it cannot read is reported and left,
 * made visible again at once when the pass ends. Never throws for a failed call: the
 * report says what stopped it.
 */
export async function receiveGrants(
  sqs: SQSClient,
  queueUrl: string,
  options: ReceiveOptions,
): Promise<ReceivedGrants> {
  const received: ReceivedGrants = { announcements: [], unreadable: [], notDeleted: [] };
  // By message id: one re-received after its hold (a long --follow) is held again, not reported twice.
  const held = new Map<string, Message>();
  let taken = 0;
  while (receiveSize(options.max, taken) > 0 && !options.signal?.aborted) {
    let Messages: Message[] = [];
    try {
      ({ Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: receiveSize(options.max, taken),
          WaitTimeSeconds: options.waitSeconds,
          VisibilityTimeout: HOLD_SECONDS,
        }),
        options.signal ? { abortSignal: options.signal } : {},
      ));
    } catch (error) {
      // The first receive failing holds nothing and printed nothing: the command's own failure
      // message (which names the queue's variable) says it best.
      if (taken === 0 && !options.signal?.aborted) throw error;
      if (!options.signal?.aborted) received.stopped = `a receive failed: ${describeError(error)}`;
      break;
    }
    if (Messages.length === 0) {
      if (options.follow) continue;
      break;
    }
    taken += Messages.length;
    const { batch, deletable, hold } = readBatch(Messages, new Set(held.keys()), options.keep);
    for (const message of hold) held.set(message.MessageId ?? "", message);
    try {
      await options.onBatch?.(batch);
    } catch (error) {
      // Not shown: nothing of it is deleted (it comes back when its hold ends).
      received.stopped = `could not show a batch: ${describeError(error)}`;
      break;
    }
    received.announcements.push(...batch.announcements);
    received.unreadable.push(...batch.unreadable);
    if (deletable.length > 0) received.notDeleted.push(...(await deleteShown(sqs, queueUrl, deletable)));
  }
  if (held.size > 0) {
    try {
      await release(sqs, queueUrl, [...held.values()]);
    } catch (error) {
      received.notReleased = describeError(error);
    }
  }
  return received;
}
