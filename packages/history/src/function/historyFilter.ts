import { matchesAnyPattern } from "@rewards/core";
import { resources } from "@rewards/core/deploy";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * The event source mapping's filters (resources.history.filterPatterns): guard INSERTs and
 * MODIFYs, every award and revocation. The infrastructure deploys them, and the local stream
 * source applies them the same way.
 */
export const HISTORY_FILTER_PATTERNS = resources.history.filterPatterns;

/** Whether the deployed mapping would deliver `record` to the history's writer. */
export const isHistoryCandidate = (record: DynamoDBRecord): boolean =>
  matchesAnyPattern(record, HISTORY_FILTER_PATTERNS);
