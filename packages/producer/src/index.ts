/**
 * @rewards/producer — publish reading events to the rewards queue.
 *
 * ```ts
 * const publisher = createPublisher({ queueUrl: "https://sqs.eu-west-1.amazonaws.com/123/rewards-events", source: "/reader/web" });
 * const [result] = await publisher.publish([
 *   publisher.events.articleCompleted({ userId: "user123", articleSlug: "idempotent-writes" }),
 * ]);
 * ```
 */
export { chunkEntries, type Entry } from "./batchEntries";
export { createEventBuilders, type EventBuilders, type RewardEvent } from "./eventBuilders";
export { createPublisher, type Publisher, type PublishResult } from "./publisher";
export { type PublisherOptions, PublisherOptionsError } from "./publisherOptions";
