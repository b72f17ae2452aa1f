import type { _Record, AttributeValue } from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBRecord, AttributeValue as LambdaAttributeValue } from "aws-lambda";

/** DynamoDB JSON as Lambda delivers it: binaries in base64, as on the wire. */
function toWire(value: AttributeValue): LambdaAttributeValue {
  if (value.B) return { B: Buffer.from(value.B).toString("base64") };
  if (value.BS) return { BS: value.BS.map((b) => Buffer.from(b).toString("base64")) };
  if (value.L) return { L: value.L.map(toWire) };
  if (value.M) return { M: imageToWire(value.M) };
  return value as LambdaAttributeValue;
}

function imageToWire(image: Record<string, AttributeValue>): Record<string, LambdaAttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toWire(value)]));
}

/**
 * A stream record as Lambda's event source hands it to a function: the SDK's record with
 * the stream's ARN, binaries in base64 and the creation time in epoch seconds.
 */
export function toLambdaStreamRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const { ApproximateCreationDateTime, Keys, NewImage, OldImage, ...rest } = record.dynamodb ?? {};
  return {
    ...(record.eventID ? { eventID: record.eventID } : {}),
    ...(record.eventName ? { eventName: record.eventName } : {}),
    ...(record.eventVersion ? { eventVersion: record.eventVersion } : {}),
    eventSource: "aws:dynamodb",
    ...(record.awsRegion ? { awsRegion: record.awsRegion } : {}),
    dynamodb: {
      ...(ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(ApproximateCreationDateTime.getTime() / 1000) }
        : {}),
      ...(Keys ? { Keys: imageToWire(Keys) } : {}),
      ...(NewImage ? { NewImage: imageToWire(NewImage) } : {}),
      ...(OldImage ? { OldImage: imageToWire(OldImage) } : {}),
      ...(rest as Omit<NonNullable<DynamoDBRecord["dynamodb"]>, "Keys" | "NewImage" | "OldImage">),
    },
    eventSourceARN: streamArn,
  };
}

export const sequenceOf = (record: DynamoDBRecord): string => record.dynamodb?.SequenceNumber ?? "0";
