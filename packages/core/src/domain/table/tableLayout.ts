import { createHash } from "node:crypto";
import { z } from "zod";
import { rfc3339DateTime as rfc3339 } from "../events/rfc3339";
import { TYPE_NAME } from "../rules/rulesDocument";

/**
 * The table's layout (docs/design.md, "The table"), in one place: its key attributes, the
 * key of each kind of item, the TTL attribute and the guard item's attributes. Everything
 * that reads or writes the table builds on these.
 */
export const PARTITION_KEY = "pk";
export const SORT_KEY = "sk";
/** Epoch seconds; DynamoDB's TTL sweeper deletes an item some time after it passes. */
export const TTL_ATTRIBUTE = "expiresAt";

export const GUARD_PK_PREFIX = "IDEM#";
export const GUARD_SK = "IDEM";

/** The guard item of an intent: its existence is the record that the intent was paid. */
export function guardKey(key: string): { pk: string; sk: string } {
  return { pk: `${GUARD_PK_PREFIX}${key}`, sk: GUARD_SK };
}

/** A user's partition: the profile, the day totals and the history. */
const USER_PK_PREFIX = "USER#";
const PROFILE_SK = "PROFILE";

export function profileKey(userId: string): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: PROFILE_SK };
}

export const DAY_SK_PREFIX = "DAY#";

/** A user's running XP total of one UTC day (`YYYY-MM-DD`), kept only with a daily cap. */
export function dayTotalKey(userId: string, day: string): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: `${DAY_SK_PREFIX}${day}` };
}

/**
 * A profile's count of awards of one event type (docs/reading.md#counts): one top-level
 * number per type (`count:article.completed`), added to by the award's own transaction and
 * taken from by the revocation's. Top-level, because ADD on a path inside a map fails while
 * the map does not exist, and the first award creates the profile.
 */
export function countAttribute(type: string): string {
  return `${COUNT_PREFIX}${type}`;
}

const COUNT_PREFIX = "count:";

/** Every type's count a profile holds (`count:<type>` attributes of any event type name): `{ type: n }`. Pure. */
export function countsOfProfile(profile: Readonly<Record<string, unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, value] of Object.entries(profile))
    if (
      name.startsWith(COUNT_PREFIX) &&
      typeof value === "number" &&
      TYPE_NAME.test(name.slice(COUNT_PREFIX.length))
    )
      counts[name.slice(COUNT_PREFIX.length)] = value;
  return counts;
}

/**
 * The profile's number of revocations (docs/reading.md#when-exactly), added to by each
 * revocation's transaction: a reader with none has counts and XP that never went down, so their
 * history's writer reads the timeline only when the profile itself reaches something new.
 */
export const REVOKED_ATTRIBUTE = "revoked";

/**
 * A user's progress (docs/reading.md#streaks): one item, its `days` the kept days (a number set
 * of day numbers) and its `achievements` the ids earned (a string set), so the history's writer
 * learns both, with the profile, in one read.
 */
export function progressKey(userId: string): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: "PROGRESS" };
}

export const ACHIEVEMENT_SK_PREFIX = "ACHIEVEMENT#";

/** An achievement a user earned (docs/reading.md#achievements): kept forever, never taken back. */
export function achievementKey(userId: string, achievement: string): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: `${ACHIEVEMENT_SK_PREFIX}${achievement}` };
}

/** The achievement of an achievement item's `sk`. */
export const achievementOfKey = (sk: unknown): string | undefined => afterPrefix(sk, ACHIEVEMENT_SK_PREFIX);

/** What follows `prefix` in a key attribute read back from the table; undefined for a key of another kind. */
function afterPrefix(value: unknown, prefix: string): string | undefined {
  return typeof value === "string" && value.startsWith(prefix) ? value.slice(prefix.length) : undefined;
}

/** The user of an item in a user's partition (`pk` of a profile, day total or history item). */
export const userOfKey = (pk: unknown): string | undefined => afterPrefix(pk, USER_PK_PREFIX);

/** The day (`YYYY-MM-DD`) of a day total's `sk`. */
export const dayOfKey = (sk: unknown): string | undefined => afterPrefix(sk, DAY_SK_PREFIX);

export const WEEK_SK_PREFIX = "WEEK#";

/**
 * A user's XP of one ISO week (docs/board.md#the-week-item), written by the history's writer
 * alone: `xp`, `version` and, while `xp` > 0, the board index's keys.
 */
export function weekKey(userId: string, week: string): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: `${WEEK_SK_PREFIX}${week}` };
}

/** The week (`2026-W49`) of a week item's `sk`. */
export const weekOfKey = (sk: unknown): string | undefined => afterPrefix(sk, WEEK_SK_PREFIX);

/**
 * The board (docs/board.md#sharding): a sparse global secondary index over the week items only
 * (no item the worker writes carries its keys, so its back-pressure never reaches an award),
 * partitioned by week and shard, sorted by XP (most first), then user id.
 */
export const BOARD_INDEX = "board";
export const BOARD_PARTITION_KEY = "boardPk";
export const BOARD_SORT_KEY = "boardSk";

/**
 * REWARDS_BOARD_SHARDS when unset (docs/board.md#sharding): at 10,000 awards a second each shard
 * of the index takes 10,000 / 32 entry changes, two index writes each (a new sort key is a
 * delete and a put): 625 writes a second, under a partition's 1,000.
 */
export const DEFAULT_BOARD_SHARDS = 32;

/** The shard of a user's board entries: a hash of the id, so a user stays in one shard. */
export function boardShardOf(userId: string, shards: number): number {
  return createHash("sha256").update(userId).digest().readUInt32BE(0) % shards;
}

/** The board index's partition key of one shard of one week. */
export function boardPartition(week: string, shard: number): string {
  return `BOARD#${week}#${shard}`;
}

/** XP written as 15 digits counting down from this, so text order is most XP first. */
const BOARD_XP_CEILING = 999_999_999_999_999;
const BOARD_XP_DIGITS = 15;

/** The board index's sort key: XP descending (fixed width), then the user id. */
export function boardSortKey(xp: number, userId: string): string {
  return `${boardXpPrefix(xp)}#${userId}`;
}

/** The part of a board sort key that XP decides: every entry with more XP sorts below it. */
export function boardXpPrefix(xp: number): string {
  return String(BOARD_XP_CEILING - xp).padStart(BOARD_XP_DIGITS, "0");
}

/** The XP and user of a board sort key; undefined for text of another shape. */
export function boardEntryOfSortKey(sk: unknown): { xp: number; userId: string } | undefined {
  if (typeof sk !== "string" || sk.length <= BOARD_XP_DIGITS + 1 || sk[BOARD_XP_DIGITS] !== "#")
    return undefined;
  const digits = sk.slice(0, BOARD_XP_DIGITS);
  if (!/^\d+$/.test(digits)) return undefined;
  return { xp: BOARD_XP_CEILING - Number(digits), userId: sk.slice(BOARD_XP_DIGITS + 1) };
}

/**
 * The sort key prefix of a user's awards in the history (docs/history.md#the-item):
 * `AWARD#<awardedAt>#<grant id>`.
 */
export const AWARD_SK_PREFIX = "AWARD#";

/**
 * One award in the history, in its user's partition: sorted by `awardedAt` (ISO, so text order
 * is time order), then by the award's `reward.granted` id, which makes two awards of one instant distinct.
 */
export function historyItemKey(
  userId: string,
  awardedAt: string,
  grantId: string,
): { pk: string; sk: string } {
  return { pk: `${USER_PK_PREFIX}${userId}`, sk: `${AWARD_SK_PREFIX}${awardedAt}#${grantId}` };
}

/**
 * A guard item's attributes as an award writes them and a revocation marks them. The
 * readers narrow it: the operator's tools read any guard (`storedGuard.ts`), the announcer
 * only what an award of a known type wrote (`rewardGranted.ts`).
 */
export const guardItemFields = {
  pk: z.string().startsWith(GUARD_PK_PREFIX),
  sk: z.literal(GUARD_SK),
  userId: z.string().min(1),
  type: z.string().min(1),
  /** 0 when the daily cap left nothing to pay (docs/awards.md#the-daily-cap). */
  amount: z.number().int().nonnegative(),
  /** What the event asked for, when the daily cap paid less. */
  requested: z.number().int().positive().optional(),
  eventId: z.string().min(1),
  messageId: z.string().optional(),
  awardedAt: rfc3339,
  /** Epoch seconds; absent when the guard is kept forever. */
  [TTL_ATTRIBUTE]: z.number().int().optional(),
  revokedAt: rfc3339.optional(),
  revokedReason: z.string().optional(),
  /**
   * The `rewards revoke` attempt that wrote `revokedAt` (a UUID, its transaction's
   * ClientRequestToken): how a run knows its own revocation after a lost answer. The clock
   * cannot tell: two runs with one reason can revoke in the same millisecond.
   */
  revocationId: z.string().optional(),
  /** The event's time (docs/events.md#event-time): absent on a guard written before the history. */
  eventTime: rfc3339.optional(),
  /** The event's validated `data` without `userId` (a rule's integer fields as numbers): absent on a guard written before the history. */
  data: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /**
   * Whether its award was added to the profile's count of its type (docs/reading.md#counts):
   * true on every guard written since; absent on one written before counts were kept, whose
   * revocation then takes nothing off a count that never held it.
   */
  counted: z.boolean().optional(),
  /** Its place (0, 1, …) in a transaction of several awards: the timeline's order at one instant. */
  seq: z.number().int().nonnegative().optional(),
  /**
   * Under a published version (docs/rules.md#facts-are-recorded): the version that paid it, and
   * what it implied — every reader of the guard takes them from here, never from its own rules.
   */
  rulesVersion: z.number().int().positive().optional(),
  /** The campaign that made it pay more than its type's XP. */
  campaign: z.string().min(1).optional(),
  /** A per-unit rule's units, those of the copy that committed. */
  units: z.number().int().nonnegative().optional(),
  /** Whether it counted toward the daily cap. */
  capped: z.boolean().optional(),
  /** The day it keeps for streaks (a `keepsStreak` type's `day`). */
  keepsDay: z.iso.date().optional(),
} as const;

/** The intent key a guard item is for, read from its partition key. */
export function intentKeyOfGuard(pk: string): string {
  return pk.slice(GUARD_PK_PREFIX.length);
}

/** The site's rules (docs/rules.md#versions): one partition, writable only by the publishing role. */
export const RULES_PK = "RULES";
/** The pointer to the version in force: `{ version, digest, publishedAt }` only. */
export const RULES_CURRENT_SK = "CURRENT";
export const RULES_VERSION_SK_PREFIX = "V#";

export function rulesPointerKey(): { pk: string; sk: string } {
  return { pk: RULES_PK, sk: RULES_CURRENT_SK };
}

/** A published version's item: `V#` and the version in 10 digits, so they sort in order. */
export function rulesVersionKey(version: number): { pk: string; sk: string } {
  return { pk: RULES_PK, sk: `${RULES_VERSION_SK_PREFIX}${String(version).padStart(10, "0")}` };
}

/** The version a `V#` sort key names, or undefined. */
export function versionOfRulesKey(sk: unknown): number | undefined {
  const digits = afterPrefix(sk, RULES_VERSION_SK_PREFIX);
  return digits !== undefined && /^\d{10}$/.test(digits) ? Number(digits) : undefined;
}
