import { PurgeQueueCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { queueCounts } from "../queues/queueCounts";

/**
 * Deletes every message of a queue for good; returns how many it held. SQS purges what the
 * queue holds when asked, and its counts just before say how much that is.
 */
export async function purgeQueue(sqs: SQSClient, queueUrl: string): Promise<{ purged: number }> {
  const counts = await queueCounts(sqs, queueUrl);
  await sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
  return { purged: counts.visible + counts.inFlight + counts.delayed };
}
