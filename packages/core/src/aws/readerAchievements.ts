import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  AWARD_SK_PREFIX,
  achievementKey,
  achievementsOnTimeline,
  achievementTitle,
  describeIssues,
  type EarnedOnTimeline,
  guardKey,
  type HistoryItem,
  historyItemSchema,
  profileKey,
  type TimedAchievement,
  timelineAwardOf,
  timelineTotals,
  toIssues,
} from "../domain";
import { classifyError, isConditionFailure } from "./classifyError";
import { retryRemainder } from "./sqsBatch";

/**
 * A reader's achievements decided on their timeline (docs/reading.md#when-exactly), for every
 * decider alike: the history's writer after a batch, `rewards history rebuild` and `rewards
 * backfill`. The timeline is the reader's history, settled by their guards; the decision is
 * core's `achievementsOnTimeline`.
 */
export interface AchievementTable {
  dynamo: Pick<DynamoDBDocumentClient, "send">;
  tableName: string;
}

export type SettledAchievements =
  /** `due`: every achievement the timeline earns that `earned` lacks; `put`: those this call wrote (a racing decider may have written the rest). */
  | { kind: "settled"; due: EarnedOnTimeline[]; put: EarnedOnTimeline[] }
  /**
   * The history does not yet account for every award the profile holds (a record still on its
   * way through another stream shard, a given-up batch, awards past the history's retention):
   * nothing is decided, so nothing is earned from a timeline with a hole in it.
   */
  | { kind: "behind"; reason: string; due: EarnedOnTimeline[] };

/** BatchGetItem's most keys a call. */
const KEYS_PER_READ = 100;

/** Every item of a user's partition whose sort key starts with `prefix`, read consistently, all pages. */
export async function partitionItems(
  table: AchievementTable,
  userId: string,
  prefix: string,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.dynamo.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": profileKey(userId).pk, ":prefix": prefix },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** Every history item of `userId`, read consistently, all pages. An item that is not a history item throws. */
export async function historyOf(table: AchievementTable, userId: string): Promise<HistoryItem[]> {
  return historyItemsOf(await partitionItems(table, userId, AWARD_SK_PREFIX));
}

/** Items read from the table as history items; one that is not a history item throws, naming it. */
export function historyItemsOf(items: ReadonlyArray<Record<string, unknown>>): HistoryItem[] {
  return items.map((item) => {
    const parsed = historyItemSchema.safeParse(item);
    if (!parsed.success)
      throw new Error(
        `history item ${String(item.sk)} is unreadable: ${describeIssues(toIssues(parsed.error.issues))}`,
      );
    return parsed.data;
  });
}

/** Keys DynamoDB still left unprocessed when the retries ran out (its answer to load). */
export class UnprocessedKeysError extends Error {
  override readonly name = "UnprocessedKeysError";
}

/**
 * The items under `keys`, read consistently (none where there is none), 100 keys per
 * BatchGetItem; keys DynamoDB leaves unprocessed are asked again under the retry policy, then
 * it throws naming `what`.
 */
export async function consistentItems(
  table: AchievementTable,
  keys: ReadonlyArray<{ pk: string; sk: string }>,
  what: string,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_READ) {
    const { remainder, error } = await retryRemainder(
      keys.slice(start, start + KEYS_PER_READ),
      async (pending) => {
        const { Responses, UnprocessedKeys } = await table.dynamo.send(
          new BatchGetCommand({
            RequestItems: { [table.tableName]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        items.push(...(Responses?.[table.tableName] ?? []));
        return (UnprocessedKeys?.[table.tableName]?.Keys ?? []) as Array<{ pk: string; sk: string }>;
      },
      { shouldRetry: (cause) => classifyError(cause) === "transient" },
    );
    if (remainder.length > 0)
      throw error instanceof Error && error.name !== "Remainder"
        ? error
        : new UnprocessedKeysError(
            `${remainder.length} ${what} could not be read (DynamoDB left them unprocessed)`,
          );
  }
  return items;
}

/** The guards (consistently) of `intentKeys`, by `pk`: what each says now. Missing ones (expired, deleted) are absent. */
async function guardsOf(
  table: AchievementTable,
  intentKeys: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const guards = await consistentItems(table, intentKeys.map(guardKey), "guards");
  return new Map(guards.map((guard) => [String(guard.pk), guard]));
}

/**
 * The history as the guards say it is now: every standing item whose guard (read consistently)
 * shows the same award revoked, revoked from the guard's instant. A revocation commits on the
 * guard first and reaches the history only when its stream record is written, possibly after a
 * later award's (another shard). A guard that is gone (expired) can no longer be revoked; a later
 * award of the intent (after its guard expired) is another award.
 */
export async function settledByGuards<
  T extends { intentKey?: unknown; awardedAt?: unknown; revokedAt?: unknown },
>(table: AchievementTable, items: readonly T[]): Promise<T[]> {
  const standing = items.filter(
    (item) => item.revokedAt === undefined && typeof item.intentKey === "string",
  ) as Array<T & { intentKey: string }>;
  const guards = await guardsOf(
    table,
    standing.map((item) => item.intentKey),
  );
  return settledWith(items, guards);
}

/**
 * `items` as `guards` (by `pk`) say they are: settledByGuards on guards already read (an
 * operator's pass reads them with the whole table).
 */
export function settledWith<T extends { intentKey?: unknown; awardedAt?: unknown; revokedAt?: unknown }>(
  items: readonly T[],
  guards: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): T[] {
  return items.map((item) => {
    if (item.revokedAt !== undefined || typeof item.intentKey !== "string") return item;
    const guard = guards.get(guardKey(item.intentKey).pk);
    const revokedAt = guard?.awardedAt === item.awardedAt ? guard?.revokedAt : undefined;
    return typeof revokedAt === "string" ? { ...item, revokedAt } : item;
  });
}

/**
 * Decides `userId`'s achievements on their timeline and puts each one due (`attribute_not_exists`:
 * a decider that raced us to it wrote the same item). Reads the history; only when the timeline
 * earns something `earned` lacks, the standing awards' guards (settledByGuards) and then the
 * profile, whose `awards` and `xp` the settled history must equal — read after the history, so
 * every award in the history is in it, and an award still missing from the history shows as a
 * difference. `dryRun` decides and writes nothing; with `pending`, on the history as those items
 * would leave it.
 */
export async function settleAchievements(
  table: AchievementTable,
  userId: string,
  options: {
    earned: ReadonlySet<string>;
    dryRun?: boolean;
    pending?: readonly HistoryItem[] | undefined;
    /**
     * The profile as the caller read it before this call (the writer's one read of the batch):
     * a history with fewer standing awards than it is behind for sure, decided without reading
     * the guards or the profile again.
     */
    seen?: Readonly<Record<string, unknown>> | undefined;
    /** The history as the caller read it, already settled by the guards (settledByGuards): not read again. */
    history?: readonly HistoryItem[] | undefined;
    /** The version's achievements with their instants (docs/rules.md); by default the built-in ones. */
    achievements?: readonly TimedAchievement[] | undefined;
  },
): Promise<SettledAchievements> {
  const stored = options.history ?? (await historyOf(table, userId));
  // What a dry run of `history rebuild` would write, in place of what is stored.
  const replaced = new Set(options.pending?.map((item) => item.sk));
  const items = [...stored.filter((item) => !replaced.has(item.sk)), ...(options.pending ?? [])];
  const dueOn = (history: typeof items) =>
    achievementsOnTimeline(history.map(timelineAwardOf), options.achievements).filter(
      ({ achievement }) => !options.earned.has(achievement),
    );
  const first = dueOn(items);
  if (first.length === 0) return { kind: "settled", due: [], put: [] };
  // Every award the profile held then was committed before the history was read: fewer standing
  // awards there means one still on its way — or a revocation committed since, its history item
  // marked already: a deferral that its own batch, which reads the whole history, settles.
  const standing = items.filter((item) => item.revokedAt === undefined).length;
  if (options.seen !== undefined && standing < Number(options.seen.awards ?? 0))
    return {
      kind: "behind",
      reason: `the history holds ${standing} standing awards, the profile ${Number(options.seen.awards)}`,
      due: first,
    };
  const settled = options.history ? items : await settledByGuards(table, items);
  const due = dueOn(settled);
  if (due.length === 0) return { kind: "settled", due: [], put: [] };
  const { Item: profile } = await table.dynamo.send(
    new GetCommand({ TableName: table.tableName, Key: profileKey(userId), ConsistentRead: true }),
  );
  const history = timelineTotals(settled.map(timelineAwardOf));
  const held = { awards: Number(profile?.awards ?? 0), xp: Number(profile?.xp ?? 0) };
  if (history.awards !== held.awards || history.xp !== held.xp)
    return {
      kind: "behind",
      reason: `the history holds ${history.awards} standing awards and ${history.xp} XP, the profile ${held.awards} and ${held.xp}`,
      due,
    };
  if (options.dryRun) return { kind: "settled", due, put: [] };
  const put: EarnedOnTimeline[] = [];
  for (const earned of due) {
    try {
      await table.dynamo.send(
        new PutCommand({
          TableName: table.tableName,
          Item: {
            ...achievementKey(userId, earned.achievement),
            userId,
            achievement: earned.achievement,
            title: achievementTitle(earned.achievement, options.achievements),
            earnedAt: earned.earnedAt,
            ...(earned.grantId === undefined ? {} : { grantId: earned.grantId }),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      put.push(earned);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { kind: "settled", due, put };
}
