import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { ZodType } from "zod";
import { type AchievementItem, achievementItemSchema } from "../domain/announce/rewardAchieved";
import { type GuardImage, guardImageSchema } from "../domain/announce/rewardGranted";
import { describeIssues, toIssues } from "../domain/events/decodeEvent";
import { achievementOfKey, GUARD_PK_PREFIX, GUARD_SK, userOfKey } from "../domain/table/tableLayout";
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

/** The new image of a write, unmarshalled and validated; `write` names it in a reason. */
function newImageOf<T>(
  record: TableStreamRecord,
  schema: ZodType<T>,
  write: string,
): { ok: true; value: T } | { ok: false; reason: string } {
  const image = record.dynamodb?.NewImage;
  if (!image) return { ok: false, reason: `${write} without its new image (the stream must show NEW_IMAGE)` };
  let plain: unknown;
  try {
    plain = unmarshall(image as Record<string, AttributeValue>);
  } catch (error) {
    return { ok: false, reason: `the new image is not DynamoDB JSON: ${describeError(error)}` };
  }
  const parsed = schema.safeParse(plain);
  if (!parsed.success) return { ok: false, reason: describeIssues(toIssues(parsed.error.issues)) };
  return { ok: true, value: parsed.data };
}

export function readGuardRecord(record: TableStreamRecord): GuardRecord {
  const keys = record.dynamodb?.Keys;
  const isGuard = keys?.sk?.S === GUARD_SK && keys.pk?.S?.startsWith(GUARD_PK_PREFIX) === true;
  if (!isGuard || (record.eventName !== "INSERT" && record.eventName !== "MODIFY")) return { kind: "other" };
  const read = newImageOf(record, guardImageSchema, "a guard write");
  return read.ok ? { kind: "guard", guard: read.value } : { kind: "unreadable", reason: read.reason };
}

/**
 * A stream record as an achievement earned (docs/reading.md#achievements): the INSERT of an
 * achievement item, its new image read and validated; anything else — another item, or an
 * achievement item's MODIFY or REMOVE, which no writer makes (an achievement is put once and
 * kept) — is `other`; an INSERT whose image cannot be read is `unreadable`, never skipped.
 */
export type AchievementRecord =
  | { kind: "achievement"; item: AchievementItem }
  | { kind: "other" }
  | { kind: "unreadable"; reason: string };

export function readAchievementRecord(record: TableStreamRecord): AchievementRecord {
  const keys = record.dynamodb?.Keys;
  const isAchievement = achievementOfKey(keys?.sk?.S) !== undefined && userOfKey(keys?.pk?.S) !== undefined;
  if (!isAchievement || record.eventName !== "INSERT") return { kind: "other" };
  const read = newImageOf(record, achievementItemSchema, "an achievement's INSERT");
  return read.ok ? { kind: "achievement", item: read.value } : { kind: "unreadable", reason: read.reason };
}
