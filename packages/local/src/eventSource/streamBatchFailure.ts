import { randomUUID } from "node:crypto";
import type { StreamBatchFailure } from "@rewards/core";
import type { DynamoDBRecord } from "aws-lambda";
import { sequenceOf } from "./streamRecord";

export type FailureCondition = "RecordAgeExceeded" | "RetryAttemptsExhausted";

const arrivalOf = (record: DynamoDBRecord | undefined): string | undefined => {
  const seconds = record?.dynamodb?.ApproximateCreationDateTime;
  return seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();
};

/**
 * What Lambda sends an on-failure destination for a given-up stream batch: not the records,
 * only their place in the stream (shard and sequence range) and why they were given up.
 */
export function streamBatchFailure(
  at: { shardId: string; streamArn: string; functionArn: string },
  records: DynamoDBRecord[],
  condition: FailureCondition,
  invokes: number,
  functionError?: string,
): StreamBatchFailure {
  const { shardId, streamArn, functionArn } = at;
  return {
    requestContext: { requestId: randomUUID(), functionArn, condition, approximateInvokeCount: invokes },
    responseContext: {
      statusCode: 200,
      executedVersion: "$LATEST",
      ...(functionError ? { functionError } : {}),
    },
    version: "1.0",
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: {
      shardId,
      startSequenceNumber: sequenceOf(records[0] as DynamoDBRecord),
      endSequenceNumber: sequenceOf(records.at(-1) as DynamoDBRecord),
      ...(arrivalOf(records[0]) ? { approximateArrivalOfFirstRecord: arrivalOf(records[0]) } : {}),
      ...(arrivalOf(records.at(-1)) ? { approximateArrivalOfLastRecord: arrivalOf(records.at(-1)) } : {}),
      batchSize: records.length,
      streamArn,
    },
  };
}
