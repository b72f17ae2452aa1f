import { MAX_AHEAD_MS } from "../events/eventTime";
import {
  AWARD_SK_PREFIX,
  BOARD_PARTITION_KEY,
  BOARD_SORT_KEY,
  boardPartition,
  boardShardOf,
  boardSortKey,
  TTL_ATTRIBUTE,
  weekKey,
} from "../table/tableLayout";
import { isoWeekOf, isoWeekStartMs } from "./isoWeek";

/**
 * A reader's week (docs/board.md): the XP of their awards whose `earnedOn` falls in one ISO week,
 * revocations taken off. Never counted per delivery: the week item names the awards it holds
 * (`counted`) and those taken off (`revoked`) by their ids, so a copy, a replay or an older image
 * finds itself already there and changes nothing. Pure.
 */

const WEEK_MS = 7 * 86_400_000;
/**
 * The longest board sort key written: DynamoDB takes 1,024 bytes for a sort key; the local
 * DynamoDB counts the table's and the index's sort keys together, so leave the week's `sk` room.
 */
const MAX_SORT_KEY_BYTES = 1000;

/** What a week reads of a history item. */
export interface WeekAward {
  /** The award's `reward.granted` id. */
  id: string;
  earnedOn: string;
  xp: number;
  revokedAt?: string | undefined;
}

/** The week's XP: the paid XP of the unrevoked awards earned in it. */
export function weekXpOf(awards: Iterable<Omit<WeekAward, "id">>, week: string): number {
  let xp = 0;
  for (const award of awards)
    if (award.revokedAt === undefined && isoWeekOf(award.earnedOn) === week) xp += award.xp;
  return xp;
}

/**
 * An award's key in a week item's sets: 16 characters of its id's digest (96 bits; a reader's
 * week holds tens of awards, so no two meet), which keeps the item, and so each write, small.
 */
export function weekFactKey(grantId: string): string {
  return grantId.slice("grant-".length, "grant-".length + 16);
}

/** A week as the item holds it. */
export interface WeekState {
  xp: number;
  /** Awards whose XP was added (revoked ones stay, so an older image cannot add it again). */
  counted: ReadonlySet<string>;
  /** Awards taken off (or revoked before they were ever counted). */
  revoked: ReadonlySet<string>;
}

export const EMPTY_WEEK: WeekState = { xp: 0, counted: new Set(), revoked: new Set() };

/** One award as the history's writer left it: standing, or revoked. */
export interface WeekFact {
  id: string;
  xp: number;
  revoked: boolean;
}

/**
 * The week after `facts`, in any order and any number of times: an award adds its XP once; a
 * revocation takes it off once, and an award arriving after its revocation (a replayed older
 * image) adds nothing. `changed` is false when every fact was already there.
 */
export function weekAfter(state: WeekState, facts: Iterable<WeekFact>): WeekState & { changed: boolean } {
  let { xp } = state;
  const counted = new Set(state.counted);
  const revoked = new Set(state.revoked);
  let changed = false;
  for (const fact of facts) {
    // A 0-XP award (capped to nothing) changes no week, taken or revoked: not named, so the
    // item grows only with awards that paid.
    if (fact.xp === 0) continue;
    const key = weekFactKey(fact.id);
    if (revoked.has(key)) continue;
    if (fact.revoked) {
      if (counted.has(key)) xp -= fact.xp;
      revoked.add(key);
      changed = true;
    } else if (!counted.has(key)) {
      xp += fact.xp;
      counted.add(key);
      changed = true;
    }
  }
  return { xp, counted, revoked, changed };
}

/** The week a history holds: every award earned in it counted, the revoked ones then taken off. */
export function weekOfHistory(awards: Iterable<WeekAward>, week: string): WeekState {
  return weekAfter(
    EMPTY_WEEK,
    [...awards]
      .filter((award) => isoWeekOf(award.earnedOn) === week)
      .flatMap((award) => [
        { id: award.id, xp: award.xp, revoked: false },
        ...(award.revokedAt === undefined ? [] : [{ id: award.id, xp: award.xp, revoked: true }]),
      ]),
  );
}

/**
 * Whether two weeks hold the same: XP, the awards taken off, and every award seen. (A revocation
 * seen before its award leaves it out of `counted`; a rebuild counts it first: the same week.)
 */
export function sameWeek(a: WeekState, b: WeekState): boolean {
  const seen = (week: WeekState) => new Set([...week.counted, ...week.revoked]);
  const same = (x: ReadonlySet<string>, y: ReadonlySet<string>) =>
    x.size === y.size && [...x].every((k) => y.has(k));
  return a.xp === b.xp && same(a.revoked, b.revoked) && same(seen(a), seen(b));
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
  state: WeekState;
  /** One more than the version the state was read at: the writers' optimistic lock. */
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
  counted?: Set<string>;
  revoked?: Set<string>;
  version: number;
  updatedAt: string;
  [TTL_ATTRIBUTE]: number;
  [BOARD_PARTITION_KEY]?: string;
  [BOARD_SORT_KEY]?: string;
}

/**
 * The week item; on the board (its index keys) only with XP: 0 XP is no entry, nor a user id
 * too long for an index key. DynamoDB has no empty set.
 */
export function weekItemOf(input: WeekItemInput): WeekItem {
  const { xp, counted, revoked } = input.state;
  const item: WeekItem = {
    ...weekKey(input.userId, input.week),
    week: input.week,
    xp,
    version: input.version,
    updatedAt: input.updatedAt,
    [TTL_ATTRIBUTE]: weekExpiresAt(input.week, input.keepWeeks),
  };
  if (counted.size > 0) item.counted = new Set(counted);
  if (revoked.size > 0) item.revoked = new Set(revoked);
  const sortKey = boardSortKey(xp, input.userId);
  // An index key over DynamoDB's limit would fail every put of the week: a user id that long
  // (the envelope takes 256 characters, up to 4 UTF-8 bytes each) keeps its week, off the board.
  if (xp > 0 && Buffer.byteLength(sortKey) <= MAX_SORT_KEY_BYTES) {
    item[BOARD_PARTITION_KEY] = boardPartition(input.week, boardShardOf(input.userId, input.shards));
    item[BOARD_SORT_KEY] = sortKey;
  }
  return item;
}

/** A week item as read back (its sets absent when empty); the empty week without one. */
export function weekStateOf(item: Record<string, unknown> | undefined): WeekState & { version?: number } {
  if (item === undefined || typeof item.version !== "number") return EMPTY_WEEK;
  const set = (value: unknown) =>
    value instanceof Set ? new Set([...value].map(String)) : new Set<string>();
  return {
    xp: typeof item.xp === "number" ? item.xp : 0,
    counted: set(item.counted),
    revoked: set(item.revoked),
    version: item.version,
  };
}

/**
 * The put of a week item written against `readVersion` (undefined: no item was there): it fails
 * when another writer put the week meanwhile, and the loser reads the week again and applies its
 * facts to what that writer left.
 */
export function weekPutCondition(readVersion: number | undefined): {
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, number>;
} {
  if (readVersion === undefined) return { ConditionExpression: "attribute_not_exists(pk)" };
  return { ConditionExpression: "version = :read", ExpressionAttributeValues: { ":read": readVersion } };
}
