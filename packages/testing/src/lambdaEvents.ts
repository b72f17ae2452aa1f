import { createHash, randomUUID } from "node:crypto";
import { lambdaContext as localLambdaContext } from "@rewards/local";
import type { Context, SQSEvent, SQSMessageAttributes, SQSRecord } from "aws-lambda";

export interface RecordOptions {
  messageId?: string;
  messageAttributes?: SQSMessageAttributes;
  groupId?: string;
  queueArn?: string;
}

const QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:rewards-events";

/** An SQS record shaped as Lambda delivers it. */
export function sqsRecord(body: string, options: RecordOptions = {}): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: options.messageId ?? randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: now,
      SenderId: "AIDAEXAMPLE",
      ApproximateFirstReceiveTimestamp: now,
      ...(options.groupId
        ? { MessageGroupId: options.groupId, SequenceNumber: now, MessageDeduplicationId: randomUUID() }
        : {}),
    },
    messageAttributes: options.messageAttributes ?? {},
    md5OfBody: createHash("md5").update(body).digest("hex"),
    eventSource: "aws:sqs",
    eventSourceARN: options.queueArn ?? QUEUE_ARN,
    awsRegion: "us-east-1",
  };
}

export function sqsEvent(records: SQSRecord[]): SQSEvent {
  return { Records: records };
}

/** A Lambda context with `remainingMs` left (30 s by default). */
export function lambdaContext(remainingMs = 30_000): Context {
  return localLambdaContext(remainingMs, "rewards-worker");
}
