import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { describeIssues, toIssues } from "../domain/decodeEvent";
import { type GuardImage, guardImageSchema } from "../domain/rewardGranted";
import { GUARD_PK_PREFIX, GUARD_SK } from "../domain/tableLayout";
import { describeError } from "./describeError";

/** What a table stream record needs to be read (Lambda's DynamoDBRecord fits it). */
export interface TableStreamRecord {
  eventName?: string | undefined;
  dynamodb?:
    | {
        Keys?: Record<string, { S?: string | undefined }> | undefined;
        NewImage?: Record<string, unknown> | undefined;
      }
    | undefined;
}

/**
 * A stream record as a guard write, for every reader of the table's stream (the announcer, the
 * history's writer): a guard INSERT or MODIFY with its new image read and validated; anything
 * else (a profile, a day total, a history item, a REMOVE — the TTL sweeper —) is `other`; a
 * guard write whose image cannot be read is `unreadable`, never skipped. Pure, but it loads the
 * SDK's unmarshalling, so it lives with the adapters rather than in the domain.
 */
export type GuardRecord =
  | { kind: "guard"; guard: GuardImage }
  | { kind: "other" }
  | { kind: "unreadable"; reason: string };

export function readGuardRecord(record: TableStreamRecord): GuardRecord {
  const { Keys: keys, NewImage: image } = record.dynamodb ?? {};
  const isGuard = keys?.sk?.S === GUARD_SK && keys.pk?.S?.startsWith(GUARD_PK_PREFIX) === true;
  if (!isGuard || (record.eventName !== "INSERT" && record.eventName !== "MODIFY")) return { kind: "other" };
  if (!image)
    return {
      kind: "unreadable",
      reason: "a guard write without its new image (the stream must show NEW_IMAGE)",
    };
  let plain: unknown;
  try {
    plain = unmarshall(image as Record<string, AttributeValue>);
  } catch (error) {
    return { kind: "unreadable", reason: `the new image is not DynamoDB JSON: ${describeError(error)}` };
  }
  const parsed = guardImageSchema.safeParse(plain);
  if (!parsed.success) return { kind: "unreadable", reason: describeIssues(toIssues(parsed.error.issues)) };
  return { kind: "guard", guard: parsed.data };
}
