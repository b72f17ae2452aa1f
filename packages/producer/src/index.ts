/**
 * @rewards/producer — publish reading events to the rewards queue.
 *
 * ```ts
 * const publisher = createPublisher({ queueUrl: process.env.QUEUE_URL!, source: "/reader/web" });
 * const [result] = await publisher.publish([
 *   publisher.events.articleCompleted({ userId: "user123", articleSlug: "idempotent-writes" }),
 * ]);
 * ```
 */
export { chunkEntries, type Entry, entryBytes, MAX_BATCH_ENTRIES, MAX_PAYLOAD_BYTES } from "./batchEntries";
export { createEventBuilders, type EventBuilders, newEventId, type RewardEvent } from "./eventBuilders";
export { createPublisher, type Publisher, type PublisherOptions, type PublishResult } from "./publisher";
