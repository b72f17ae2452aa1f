import { matchesPattern } from "@rewards/core";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * The event source mapping's filter: only guard writes that can be awards reach the
 * function — an INSERT (a new guard) or a MODIFY (a guard that replaced an expired one),
 * never a profile update or a REMOVE (the TTL sweeper). The infrastructure deploys this
 * object; the local stream source applies it the same way.
 */
export const AWARD_FILTER_PATTERN = {
  eventName: ["INSERT", "MODIFY"],
  dynamodb: { Keys: { sk: { S: ["IDEM"] } } },
} as const;

/** Whether the deployed mapping would deliver `record` to the announcer. */
export const isAwardCandidate = (record: DynamoDBRecord): boolean =>
  matchesPattern(record, AWARD_FILTER_PATTERN);
