import { z } from "zod";
import { type GuardImage, grantId } from "../announce/rewardGranted";
import { epochMsOfRfc3339, rfc3339DateTime as rfc3339 } from "../events/rfc3339";
import { eventTypeNameSchema } from "../rules/rulesDocument";
import { AWARD_SK_PREFIX, historyItemKey, intentKeyOfGuard, TTL_ATTRIBUTE } from "../table/tableLayout";

const DAY_SECONDS = 86_400;

/** An award in the reader's history (docs/history.md#the-item), as the history writer stores it. */
export const historyItemSchema = z.object({
  pk: z.string().startsWith("USER#"),
  sk: z.string().startsWith(AWARD_SK_PREFIX),
  /** The award's `reward.granted` id: the same for every copy of one award. */
  id: z.string().regex(/^grant-[A-Za-z0-9_-]{43}$/),
  type: eventTypeNameSchema,
  /** The event's validated data without userId: `{articleSlug}`, `{articleSlug, channel}`, `{day}`, `{}`; a rule's integers as numbers. */
  data: z.record(z.string(), z.union([z.string(), z.number()])),
  /** XP paid (0 when the daily cap left nothing). */
  xp: z.number().int().nonnegative(),
  /** What the rule asked for, only when the cap cut it. */
  requestedXp: z.number().int().positive().optional(),
  eventId: z.string().min(1),
  eventTime: rfc3339,
  /** The UTC day of eventTime: the day the cap counted it toward. */
  earnedOn: z.iso.date(),
  awardedAt: rfc3339,
  intentKey: z.string().min(1),
  revokedAt: rfc3339.optional(),
  revokedReason: z.string().min(1).optional(),
  /** Its guard's `counted`: whether the profile's count of its type holds it. */
  counted: z.boolean().optional(),
  /** Its guard's `seq`: its place in a transaction of several awards. */
  seq: z.number().int().nonnegative().optional(),
  /** Its guard's facts under a published version (docs/rules.md#facts-are-recorded). */
  rulesVersion: z.number().int().positive().optional(),
  campaign: z.string().min(1).optional(),
  units: z.number().int().nonnegative().optional(),
  keepsDay: z.iso.date().optional(),
  /** Epoch seconds: awardedAt + REWARDS_HISTORY_DAYS days; absent when kept forever. */
  [TTL_ATTRIBUTE]: z.number().int().optional(),
});

export type HistoryItem = z.infer<typeof historyItemSchema>;

export interface HistoryOptions {
  /** REWARDS_HISTORY_DAYS: how long the history keeps an award; 0 keeps it forever. */
  historyDays: number;
}

/**
 * The history item of the award a guard image shows
 * (docs/history.md#exactly-once-by-construction). Pure and derived from the image alone,
 * so every copy and replay of a stream record writes the same item. A guard written
 * before the history (no eventTime, no data) gets an entry with what it has: its awardedAt
 * as the event's time, and the data its intent key holds (dataOfKey).
 */
export function historyItemOf(guard: GuardImage, options: HistoryOptions): HistoryItem {
  const intentKey = intentKeyOfGuard(guard.pk);
  const id = grantId(intentKey, guard.awardedAt);
  const eventTime = guard.eventTime ?? guard.awardedAt;
  const item: HistoryItem = {
    ...historyItemKey(guard.userId, guard.awardedAt, id),
    id,
    type: guard.type,
    data: guard.data ?? dataOfKey(guard.type, intentKey),
    xp: guard.amount,
    eventId: guard.eventId,
    eventTime,
    // The UTC day of the instant, whatever offset the stored text carries.
    earnedOn: new Date(epochMsOfRfc3339(eventTime)).toISOString().slice(0, 10),
    awardedAt: guard.awardedAt,
    intentKey,
  };
  if (guard.requested !== undefined) item.requestedXp = guard.requested;
  if (guard.counted !== undefined) item.counted = guard.counted;
  if (guard.seq !== undefined) item.seq = guard.seq;
  if (guard.rulesVersion !== undefined) item.rulesVersion = guard.rulesVersion;
  if (guard.campaign !== undefined) item.campaign = guard.campaign;
  if (guard.units !== undefined) item.units = guard.units;
  if (guard.keepsDay !== undefined) item.keepsDay = guard.keepsDay;
  if (guard.revokedAt !== undefined) item.revokedAt = guard.revokedAt;
  if (guard.revokedReason !== undefined) item.revokedReason = guard.revokedReason;
  if (options.historyDays > 0) {
    item[TTL_ATTRIBUTE] =
      Math.floor(epochMsOfRfc3339(guard.awardedAt) / 1000) + options.historyDays * DAY_SECONDS;
  }
  return item;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The data a guard written before `data` was stored still says through its intent key: a
 * `streak.day` key is `<userId>#<day>#streak.day` (docs/events.md#intent-keys), so its day is
 * kept for streaks. Nothing for other types (their parts are not needed for anything derived),
 * nor for a key hashed because it was too long.
 */
export function dataOfKey(type: string, intentKey: string): Record<string, string> {
  if (type !== "streak.day") return {};
  const parts = intentKey.split("#");
  const day = parts.length === 3 && parts[2] === "streak.day" ? parts[1] : undefined;
  return day !== undefined && DAY.test(day) ? { day } : {};
}

/** The history writer's one request per award (docs/history.md, "Exactly once, by construction"). */
export interface HistoryPut {
  TableName: string;
  Item: HistoryItem;
  /** Only for an unrevoked image: an older image never overwrites a later revocation. */
  ConditionExpression?: string;
}

export const HISTORY_PUT_CONDITION = "attribute_not_exists(revokedAt)";

/**
 * The PutItem of a history item: conditional when the image is unrevoked (a failed condition
 * is an older image after a revocation: acknowledged, nothing written), unconditional when
 * revoked (every copy of a revoked image writes the same content). Pure.
 */
export function historyPutOf(item: HistoryItem, tableName: string): HistoryPut {
  if (item.revokedAt !== undefined) return { TableName: tableName, Item: item };
  return { TableName: tableName, Item: item, ConditionExpression: HISTORY_PUT_CONDITION };
}
