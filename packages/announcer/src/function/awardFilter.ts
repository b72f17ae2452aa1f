import { matchesPattern } from "@rewards/core";
import { resources } from "@rewards/core/deploy";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * The event source mapping's filter (resources.announcer.filterPattern): the infrastructure
 * deploys it, and the local stream source applies it the same way.
 */
export const AWARD_FILTER_PATTERN = resources.announcer.filterPattern;

/** Whether the deployed mapping would deliver `record` to the announcer. */
export const isAwardCandidate = (record: DynamoDBRecord): boolean =>
  matchesPattern(record, AWARD_FILTER_PATTERN);
