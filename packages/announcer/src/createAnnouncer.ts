import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from "aws-lambda";
import { announce } from "./announce";
import type { AnnouncerDeps } from "./announcerDeps";

export type StreamBatchHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse>;

/** A Lambda handler (DynamoDB stream event source with ReportBatchItemFailures) over fixed dependencies. */
export function createAnnouncer(deps: AnnouncerDeps): StreamBatchHandler {
  return async (event, context) => (await announce(deps, event, context)).response;
}
