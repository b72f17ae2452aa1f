import { PARK_ATTRIBUTES, type QueueTimes } from "@rewards/core";
import type { SQSRecord } from "aws-lambda";

/** When the record's message first entered the queue, as its attributes say. */
export function queueTimesOf(record: SQSRecord): QueueTimes {
  return {
    firstSentAt: record.messageAttributes[PARK_ATTRIBUTES.firstSentAt]?.stringValue,
    sentTimestamp: record.attributes.SentTimestamp,
  };
}
