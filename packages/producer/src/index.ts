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

// The types the API above names, so a caller can name them too (the packed declaration file
// exports what this module exports, no more).
export type { Attributes, Envelope, EventIssue, EventType, RuleData } from "@rewards/core";
export type { RetryPolicy } from "@rewards/core/aws";
export { chunkEntries, type Entry } from "./batchEntries";
export { createEventBuilders, type EventBuilders, type RewardEvent } from "./eventBuilders";
export { createPublisher, type Publisher, type PublishResult } from "./publisher";
export { type PublisherOptions, PublisherOptionsError } from "./publisherOptions";
