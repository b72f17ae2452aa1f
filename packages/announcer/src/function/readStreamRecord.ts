import { type Announcement, rewardAchieved, rewardGranted, rewardRevoked } from "@rewards/core";
import { readAchievementRecord, readGuardRecord } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * What one stream record means to the announcer: an announcement (`reward.granted` for an award
 * that paid XP, `reward.revoked` for a revocation, `reward.achieved` for an achievement earned);
 * nothing (a profile, a day total, a history item, a REMOVE — a guard the TTL sweeper deleted —,
 * an award the daily cap left at 0 XP); or an image it cannot read, which is never skipped: it
 * fails, is retried, and finally reaches the failure destination.
 */
export type ReadStreamRecord =
  | { kind: "announce"; record: DynamoDBRecord; announcement: Announcement }
  | { kind: "skip"; record: DynamoDBRecord }
  | { kind: "unreadable"; record: DynamoDBRecord; reason: string };

/**
 * A guard INSERT or MODIFY is an award (a new guard, or one that replaced an expired guard),
 * unless it carries `revokedAt`: the only other write a guard ever gets is its revocation. An
 * achievement item's INSERT is the achievement (it is put once and never changed). Pure.
 */
export function readStreamRecord(record: DynamoDBRecord): ReadStreamRecord {
  const read = readGuardRecord(record);
  if (read.kind === "other") return readAchievement(record);
  if (read.kind === "unreadable") return { kind: "unreadable", record, reason: read.reason };
  const guard = read.guard;
  if (guard.revokedAt !== undefined) {
    if (guard.revokedReason === undefined)
      return { kind: "unreadable", record, reason: "revokedReason: a revoked guard must say why" };
    return {
      kind: "announce",
      record,
      announcement: rewardRevoked({
        ...guard,
        revokedAt: guard.revokedAt,
        revokedReason: guard.revokedReason,
      }),
    };
  }
  // Capped to 0 XP (`requested` says what its rule asked): the intent is spent, nothing was
  // paid, so there is nothing to announce. A rule that pays 0 is announced with xp 0.
  if (guard.amount === 0 && guard.requested !== undefined) return { kind: "skip", record };
  return { kind: "announce", record, announcement: rewardGranted(guard) };
}

function readAchievement(record: DynamoDBRecord): ReadStreamRecord {
  const read = readAchievementRecord(record);
  if (read.kind === "other") return { kind: "skip", record };
  if (read.kind === "unreadable") return { kind: "unreadable", record, reason: read.reason };
  return { kind: "announce", record, announcement: rewardAchieved(read.item) };
}
