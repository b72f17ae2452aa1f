import { createHash, randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { guardKey } from "@rewards/core";
import type {
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSEvent,
  SQSMessageAttributes,
  SQSRecord,
  AttributeValue as StreamAttributeValue,
} from "aws-lambda";

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

/** A guard as the award writes it (plain values), for stream records. */
export function guardItem(
  intentKey: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...guardKey(intentKey),
    userId: "user123",
    type: "article.completed",
    amount: 20,
    eventId: "evt-1",
    awardedAt: "2026-11-29T10:00:01.234Z",
    expiresAt: 1_800_000_000,
    ...overrides,
  };
}

/** The SDK's and Lambda's types of one wire shape (DynamoDB JSON), declared twice. */
const asStreamImage = (image: Record<string, AttributeValue>) =>
  image as unknown as Record<string, StreamAttributeValue>;

let sequence = 100_000_000_000_000_000_000n;

/**
 * A DynamoDB stream record shaped as Lambda delivers it (NEW_IMAGE view): `image` is the
 * item's plain values, or undefined for a REMOVE. Sequence numbers increase per call.
 */
export function streamRecord(
  eventName: "INSERT" | "MODIFY" | "REMOVE",
  image: Record<string, unknown>,
  options: { sequenceNumber?: string; newImage?: Record<string, AttributeValue> | null } = {},
): DynamoDBRecord {
  sequence += 100n;
  const item = marshall(image, { removeUndefinedValues: true });
  const newImage =
    options.newImage === undefined ? (eventName === "REMOVE" ? undefined : item) : options.newImage;
  return {
    eventID: randomUUID().replaceAll("-", ""),
    eventName,
    eventVersion: "1.1",
    eventSource: "aws:dynamodb",
    awsRegion: "us-east-1",
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: asStreamImage({ pk: item.pk, sk: item.sk } as Record<string, AttributeValue>),
      ...(newImage ? { NewImage: asStreamImage(newImage) } : {}),
      SequenceNumber: options.sequenceNumber ?? String(sequence),
      SizeBytes: 200,
      StreamViewType: "NEW_IMAGE",
    },
    eventSourceARN: "arn:aws:dynamodb:us-east-1:000000000000:table/rewards/stream/2026-12-01T00:00:00.000",
  };
}

export function streamEvent(records: DynamoDBRecord[]): DynamoDBStreamEvent {
  return { Records: records };
}
