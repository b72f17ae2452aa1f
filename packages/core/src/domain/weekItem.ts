import { MAX_AHEAD_MS } from "./eventTime";
import { isoWeekOf, isoWeekStartMs } from "./isoWeek";
import {
  AWARD_SK_PREFIX,
  BOARD_PARTITION_KEY,
  BOARD_SORT_KEY,
  boardPartition,
  boardShardOf,
  boardSortKey,
  TTL_ATTRIBUTE,
  weekKey,
} from "./tableLayout";

/**
 * A reader's week (docs/board.md): the XP of their awards whose `earnedOn` falls in one ISO week,
 * revocations taken off. It is never counted per delivery: the history's writer sums the week's
 * history items again (they are the awards, exactly once) and puts the total. Pure.
 */

const WEEK_MS = 7 * 86_400_000;

/** What a week's sum reads of a history item. */
export interface WeekAward {
  earnedOn: string;
  xp: number;
  revokedAt?: string | undefined;
}

/** The week's XP: the paid XP of the unrevoked awards earned in it. */
export function weekXpOf(awards: Iterable<WeekAward>, week: string): number {
  let xp = 0;
  for (const award of awards)
    if (award.revokedAt === undefined && isoWeekOf(award.earnedOn) === week) xp += award.xp;
  return xp;
}

/**
 * The first history sort key that can hold an award earned in `week`: an award is paid at or after
 * its event's time less the 5 minutes an event may run ahead of the worker's clock. There is no
 * last: a late event (a signup is never stale) can be paid any time after its week.
 */
export function weekHistoryStart(week: string): string {
  return `${AWARD_SK_PREFIX}${new Date(isoWeekStartMs(week) - MAX_AHEAD_MS).toISOString()}`;
}

/** When a week's items go (epoch seconds): `keepWeeks` weeks after the week ends. */
export function weekExpiresAt(week: string, keepWeeks: number): number {
  return Math.floor((isoWeekStartMs(week) + (1 + keepWeeks) * WEEK_MS) / 1000);
}

export interface WeekItemInput {
  userId: string;
  week: string;
  xp: number;
  /** One more than the version the total was read against: the writers' optimistic lock. */
  version: number;
  updatedAt: string;
  /** REWARDS_BOARD_SHARDS. */
  shards: number;
  /** REWARDS_BOARD_WEEKS. */
  keepWeeks: number;
}

export interface WeekItem {
  pk: string;
  sk: string;
  week: string;
  xp: number;
  version: number;
  updatedAt: string;
  [TTL_ATTRIBUTE]: number;
  [BOARD_PARTITION_KEY]?: string;
  [BOARD_SORT_KEY]?: string;
}

/** The week item; on the board (its index keys) only with XP: 0 XP is no entry. */
export function weekItemOf(input: WeekItemInput): WeekItem {
  const item: WeekItem = {
    ...weekKey(input.userId, input.week),
    week: input.week,
    xp: input.xp,
    version: input.version,
    updatedAt: input.updatedAt,
    [TTL_ATTRIBUTE]: weekExpiresAt(input.week, input.keepWeeks),
  };
  if (input.xp > 0) {
    item[BOARD_PARTITION_KEY] = boardPartition(input.week, boardShardOf(input.userId, input.shards));
    item[BOARD_SORT_KEY] = boardSortKey(input.xp, input.userId);
  }
  return item;
}

/**
 * The put of a week item written against `readVersion` (undefined: no item was there): it fails
 * when another writer put the week meanwhile, whose sum may have missed this writer's awards or
 * included later ones, so the loser sums again. Always written, even when the total is unchanged:
 * the version moving is what makes a concurrent writer's older sum lose.
 */
export function weekPutCondition(readVersion: number | undefined): {
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, number>;
} {
  if (readVersion === undefined) return { ConditionExpression: "attribute_not_exists(pk)" };
  return { ConditionExpression: "version = :read", ExpressionAttributeValues: { ":read": readVersion } };
}
