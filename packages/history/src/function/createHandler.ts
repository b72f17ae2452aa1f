import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import type { HistoryDeps } from "./historyDeps";
import { processBatch } from "./processBatch";

export type StreamBatchHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse>;

/** A Lambda handler (DynamoDB stream event source with ReportBatchItemFailures) over fixed dependencies. */
export function createHandler(deps: HistoryDeps): StreamBatchHandler {
  return async (event, context) => (await processBatch(deps, event, context)).response;
}
