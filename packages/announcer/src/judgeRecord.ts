import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  describeError,
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  guardImageSchema,
  type RewardGranted,
  rewardGranted,
  toIssues,
} from "@rewards/core";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * What one stream record means to the announcer: an award to announce; nothing (a profile,
 * a REMOVE — a guard the TTL sweeper deleted); or a guard image it cannot read, which is
 * never skipped: it fails, is retried, and finally reaches the failure destination.
 */
export type Judged =
  | { kind: "award"; record: DynamoDBRecord; grant: RewardGranted }
  | { kind: "skip"; record: DynamoDBRecord }
  | { kind: "unreadable"; record: DynamoDBRecord; reason: string };

/**
 * A guard INSERT or MODIFY is an award: a new guard, or one that replaced an expired guard
 * (the only writes a guard ever gets are the award's conditional put). Pure.
 */
export function judgeRecord(record: DynamoDBRecord): Judged {
  const { Keys: keys, NewImage: image } = record.dynamodb ?? {};
  const isGuard = keys?.sk?.S === GUARD_SK && keys.pk?.S?.startsWith(GUARD_PK_PREFIX) === true;
  if (!isGuard || (record.eventName !== "INSERT" && record.eventName !== "MODIFY"))
    return { kind: "skip", record };
  if (!image)
    return {
      kind: "unreadable",
      record,
      reason: "a guard write without its new image (the stream must show NEW_IMAGE)",
    };
  let plain: unknown;
  try {
    plain = unmarshall(image as Record<string, AttributeValue>);
  } catch (error) {
    return {
      kind: "unreadable",
      record,
      reason: `the new image is not DynamoDB JSON: ${describeError(error)}`,
    };
  }
  const parsed = guardImageSchema.safeParse(plain);
  if (!parsed.success) {
    return {
      kind: "unreadable",
      record,
      reason: describeIssues(toIssues(parsed.error.issues)),
    };
  }
  return { kind: "award", record, grant: rewardGranted(parsed.data) };
}
