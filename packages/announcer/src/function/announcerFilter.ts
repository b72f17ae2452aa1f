import { matchesAnyPattern } from "@rewards/core";
import { resources } from "@rewards/core/deploy";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * The event source mapping's filters (resources.announcer.filterPatterns, any one of which
 * lets a record through): the infrastructure deploys them, and the local stream source applies
 * them the same way.
 */
export const ANNOUNCER_FILTER_PATTERNS = resources.announcer.filterPatterns;

/** Whether the deployed mapping would deliver `record` to the announcer: a guard write, or an achievement's INSERT. */
export const isAnnouncerCandidate = (record: DynamoDBRecord): boolean =>
  matchesAnyPattern(record, ANNOUNCER_FILTER_PATTERNS);
