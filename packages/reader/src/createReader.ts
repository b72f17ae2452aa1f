import { setTimeout as sleep } from "node:timers/promises";
import {
  type AttributeValue,
  BatchGetItemCommand,
  DynamoDBClient,
  QueryCommand,
} from "@aws-sdk/client-dynamodb";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  capRoom,
  countsTowardCap,
  dayNumberOf,
  dayTotalKey,
  isoWeekOf,
  levelOf,
  profileKey,
  progressKey,
  RULES_CURRENT_SK,
  RULES_PK,
  streakOf,
  weekKey,
} from "@rewards/core";
import { encodeBoardCursor } from "./boardCursor";
import { boardPage, type Query, rankFromTops, shardTops } from "./boardReads";
import { encodeCursor } from "./historyCursor";
import { AWARD_SK_END, AWARD_SK_PREFIX, userPartition } from "./historyLayout";
import { type ReaderOptions, validateReaderOptions } from "./readerOptions";
import { type RulesView, rulesViewOf } from "./readerRules";
import type { Achievements, Board, HistoryPage, Profile } from "./readerSchemas";
import {
  checkedBoardCursor,
  checkedCursor,
  checkedLimit,
  checkedTimeZone,
  checkedUserId,
  checkedWeek,
} from "./readInput";
import { createRulesCache } from "./rulesCache";
import {
  newReader,
  readAchievementItem,
  readDayItem,
  readEarning,
  readHistoryItem,
  readProfileItem,
  readStreakItem,
  readWeekItem,
} from "./storedItems";
import { TableNotFoundError } from "./tableNotFoundError";
import { ThrottledReadError } from "./throttledReadError";
import { todayOf, zoneDayOf } from "./today";
import { waitBeforeAsking } from "./unprocessedKeysBackoff";

export interface HistoryOptions {
  /** Awards per page, 1–100; 20 unless given. */
  limit?: number;
  /** The previous page's `cursor`, to read the page after it. */
  cursor?: string;
}

export interface ProfileOptions {
  /** The IANA zone the streak's today is read in (docs/reading.md#streaks); UTC unless given. */
  timeZone?: string;
}

export interface BoardOptions {
  /** The ISO week, `2026-W49`; the current one (UTC) unless given, or the cursor's. */
  week?: string;
  /** Entries per page, 1–100; 20 unless given. */
  limit?: number;
  /** The previous page's `cursor`, to read the page after it. */
  cursor?: string;
}

export interface Reader {
  /**
   * A user's XP, counts, streak, level and today's XP (against the cap, when one is set).
   * Never an error for an unknown user.
   */
  profile(userId: string, options?: ProfileOptions): Promise<Profile>;
  /** A user's achievements, newest first (docs/reading.md#achievements). One call. */
  achievements(userId: string): Promise<Achievements>;
  /** One page of a user's awards, newest `awardedAt` first. */
  history(userId: string, options?: HistoryOptions): Promise<HistoryPage>;
  /** One page of a week's board, most XP first (docs/board.md). One round trip. */
  board(options?: BoardOptions): Promise<Board>;
  /**
   * The rules in force (docs/reading.md#the-rules): types, achievements, running and coming
   * campaigns. Read at most every `rulesRefreshSeconds`; RulesUnavailableError when no version
   * may be shown.
   */
  rules(): Promise<RulesView>;
}

type Item = Record<string, AttributeValue>;

/**
 * A role that may read the reader's partition but not the board's index (a site's role limited
 * to `USER#…` keys, docs/reading.md#iam) gets its profile without a rank; any other failure of
 * the board's reads fails the profile, as every read's does.
 */
function withoutTheBoard(error: unknown): undefined {
  if (error instanceof Error && error.name === "AccessDeniedException") return undefined;
  throw error;
}

/** DynamoDB's answer to a read of a table that is not there (an error name, not a message). */
const NO_SUCH_TABLE = "ResourceNotFoundException";

/**
 * A reader of the rewards table (docs/reading.md). It reads its options and nothing else (no
 * variable, no logger, nothing at import); every read is strongly consistent.
 */
export function createReader(options: ReaderOptions): Reader {
  const { dailyCap, boardShards, rulesRefreshSeconds } = validateReaderOptions(options);
  const { tableName } = options;
  const clock = options.clock ?? (() => new Date());
  let ownClient: DynamoDBClient | undefined;
  // Built on first use, so creating a reader does nothing but check its options.
  const client = (): DynamoDBClient => {
    if (options.client) return options.client;
    ownClient ??= new DynamoDBClient({ maxAttempts: 3 });
    return ownClient;
  };
  /** One call's answer; a missing table is named (TableNotFoundError), every other error is the SDK's. */
  async function answerOf<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof Error && error.name === NO_SUCH_TABLE)
        throw new TableNotFoundError(tableName, { cause: error });
      throw error;
    }
  }

  /**
   * The profile, the kept days and, under a cap, today's day total, in one BatchGetItem. Keys
   * it leaves unprocessed (throttling) are asked again after a backoff, within its bound
   * (unprocessedKeysBackoff.ts); past it, ThrottledReadError.
   */
  async function profileItems(userId: string, day: string | undefined, week: string, withRules: boolean) {
    const profile = profileKey(userId);
    const streak = progressKey(userId);
    const weekItem = weekKey(userId, week);
    const dayTotal = day === undefined ? undefined : dayTotalKey(userId, day);
    let keys: Item[] = [
      marshall(profile),
      marshall(streak),
      marshall(weekItem),
      ...(dayTotal ? [marshall(dayTotal)] : []),
      // The rules' CURRENT when due: in this same call, no round trip of its own.
      ...(withRules ? [rules.pointerKey] : []),
    ];
    const found: Record<string, unknown>[] = [];
    const started = performance.now();
    for (let calls = 1; ; calls += 1) {
      const answer = await answerOf(
        client().send(
          new BatchGetItemCommand({
            RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } },
            ReturnConsumedCapacity: "TOTAL",
          }),
        ),
      );
      found.push(...(answer.Responses?.[tableName] ?? []).map((item) => unmarshall(item)));
      keys = answer.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (keys.length === 0) break;
      const elapsedMs = Math.round(performance.now() - started);
      const wait = waitBeforeAsking(calls, elapsedMs, Math.random);
      if (wait === undefined) throw new ThrottledReadError(keys.length, calls, elapsedMs);
      await sleep(wait);
    }
    return {
      profileItem: found.find((item) => item.sk === profile.sk),
      streakItem: found.find((item) => item.sk === streak.sk),
      weekXp: readWeekItem(found.find((item) => item.sk === weekItem.sk)),
      dayXp: found.filter((item) => item.sk === dayTotal?.sk).reduce((_, item) => readDayItem(item), 0),
      pointer: withRules
        ? found.find((item) => item.pk === RULES_PK && item.sk === RULES_CURRENT_SK)
        : undefined,
    };
  }

  /** Without a cap: the XP of the history items earned on `day` (every page of the Query). */
  async function earnedOn(userId: string, day: string, fromSk: string): Promise<number> {
    let xp = 0;
    let start: Item | undefined;
    do {
      const answer = await answerOf(
        client().send(
          new QueryCommand({
            TableName: tableName,
            ConsistentRead: true,
            KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
            FilterExpression: "earnedOn = :day",
            ProjectionExpression: "pk, sk, #type, xp, earnedOn",
            ExpressionAttributeNames: { "#type": "type" },
            ExpressionAttributeValues: marshall({
              ":pk": userPartition(userId),
              ":from": fromSk,
              ":to": AWARD_SK_END,
              ":day": day,
            }),
            ExclusiveStartKey: start,
            ReturnConsumedCapacity: "TOTAL",
          }),
        ),
      );
      for (const raw of answer.Items ?? []) {
        const earning = readEarning(unmarshall(raw));
        // Counted as the cap counts it, revoked awards included (docs/awards.md#the-daily-cap).
        if (earning.earnedOn === day && countsTowardCap(earning.type)) xp += earning.xp;
      }
      start = answer.LastEvaluatedKey;
    } while (start !== undefined);
    return xp;
  }

  const query: Query = (input) => answerOf(client().send(new QueryCommand(input)));
  const rules = createRulesCache({ client, tableName, refreshSeconds: rulesRefreshSeconds, answerOf });
  const board = { tableName, shards: boardShards };

  return {
    async profile(userId, profileOptions) {
      const id = checkedUserId(userId);
      const timeZone = checkedTimeZone(profileOptions?.timeZone);
      const now = clock();
      const { day, fromSk } = todayOf(now);
      const week = isoWeekOf(now.getTime());
      const withRules = rules.due(now.getTime());
      // One round trip: the items, the board's shard tops and, without a cap, today's history, in parallel.
      const [{ profileItem, streakItem, weekXp, dayXp, pointer }, tops] = await Promise.all([
        dailyCap === undefined
          ? Promise.all([profileItems(id, undefined, week, withRules), earnedOn(id, day, fromSk)]).then(
              ([items, xp]) => ({
                ...items,
                dayXp: xp,
              }),
            )
          : profileItems(id, day, week, withRules),
        shardTops(query, board, week).catch(withoutTheBoard),
      ]);
      const rank =
        tops === undefined
          ? undefined
          : await rankFromTops(query, board, week, id, weekXp, tops).catch(withoutTheBoard);
      const stored = profileItem === undefined ? newReader() : readProfileItem(profileItem);
      // Every type of the rules in force is counted (0 when none); counts never wait on the rules.
      const inForce = withRules
        ? await rules.settle(pointer, now.getTime()).catch(() => rules.last())
        : rules.last();
      for (const type of Object.keys(inForce?.document.types ?? {})) stored.counts[type] ??= 0;
      return {
        userId: id,
        xp: stored.xp,
        awards: stored.awards,
        counts: stored.counts,
        streak: streakOf(readStreakItem(streakItem), dayNumberOf(zoneDayOf(now, timeZone))),
        level: levelOf(stored.xp),
        today:
          dailyCap === undefined
            ? { day, xp: dayXp }
            : { day, xp: dayXp, cap: dailyCap, left: capRoom(dailyCap, dayXp) },
        week: rank === undefined ? { week, xp: weekXp } : { week, xp: weekXp, rank },
        ...(stored.updatedAt !== undefined ? { updatedAt: stored.updatedAt } : {}),
      };
    },

    async achievements(userId) {
      const id = checkedUserId(userId);
      const found: Record<string, unknown>[] = [];
      let start: Item | undefined;
      do {
        const answer = await answerOf(
          client().send(
            new QueryCommand({
              TableName: tableName,
              ConsistentRead: true,
              KeyConditionExpression: "pk = :pk AND begins_with(sk, :achievement)",
              ExpressionAttributeValues: marshall({
                ":pk": userPartition(id),
                ":achievement": ACHIEVEMENT_SK_PREFIX,
              }),
              ExclusiveStartKey: start,
              ReturnConsumedCapacity: "TOTAL",
            }),
          ),
        );
        found.push(...(answer.Items ?? []).map((item) => unmarshall(item)));
        start = answer.LastEvaluatedKey;
      } while (start !== undefined);
      // Titles as the rules in force give them (a title changed since it was earned reads as now).
      const inForce = await rules.current(clock().getTime()).catch(() => rules.last());
      const titles = new Map(inForce?.document.achievements.map((each) => [each.id, each.title]));
      const achievements = found
        .map(readAchievementItem)
        .map((achievement) => ({ ...achievement, title: titles.get(achievement.id) ?? achievement.title }));
      // Newest first; one instant's in id order, so the answer is the same every time.
      achievements.sort((a, b) => b.earnedAt.localeCompare(a.earnedAt) || a.id.localeCompare(b.id));
      return { achievements };
    },

    async history(userId, historyOptions) {
      const id = checkedUserId(userId);
      // A caller in plain JavaScript may pass null: no options, not a TypeError.
      const options = historyOptions ?? {};
      const limit = checkedLimit(options.limit);
      const after = checkedCursor(id, options.cursor);
      const pk = userPartition(id);
      // One more than the page: when it comes back, there is a next page; when not, this is the last.
      const answer = await answerOf(
        client().send(
          new QueryCommand({
            TableName: tableName,
            ConsistentRead: true,
            ScanIndexForward: false,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :award)",
            ExpressionAttributeValues: marshall({ ":pk": pk, ":award": AWARD_SK_PREFIX }),
            Limit: limit + 1,
            ...(after === undefined ? {} : { ExclusiveStartKey: marshall({ pk, sk: after }) }),
            ReturnConsumedCapacity: "TOTAL",
          }),
        ),
      );
      const items = (answer.Items ?? []).map((item) => unmarshall(item));
      const page = items.slice(0, limit);
      const last = page.at(-1);
      // More items than the page, or DynamoDB stopped early (its 1 MB page): a next page may follow.
      const more = items.length > limit || (answer.LastEvaluatedKey !== undefined && page.length > 0);
      return {
        awards: page.map(readHistoryItem),
        ...(more && last !== undefined ? { cursor: encodeCursor(id, String(last.sk)) } : {}),
      };
    },

    async board(boardOptions) {
      // A caller in plain JavaScript may pass null: no options, not a TypeError.
      const options = boardOptions ?? {};
      const asked = checkedWeek(options.week);
      const limit = checkedLimit(options.limit);
      const from = checkedBoardCursor(options.cursor, asked);
      const week = asked ?? from?.week ?? isoWeekOf(clock().getTime());
      const { entries, next } = await boardPage(query, board, week, limit, from);
      return { week, entries, ...(next ? { cursor: encodeBoardCursor({ week, ...next }) } : {}) };
    },

    async rules() {
      const now = clock();
      return rulesViewOf(await rules.current(now.getTime()), now);
    },
  };
}
