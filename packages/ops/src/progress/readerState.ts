import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  AWARD_SK_PREFIX,
  achievementOfKey,
  countAttribute,
  eventTypes,
  profileKey,
  progressKey,
} from "@rewards/core";
import { partitionItems } from "@rewards/core/aws";

/** What the table holds of one reader's progress, read consistently. */
export interface ReaderState {
  /** The profile's `xp`, `awards` and counts per type (absent attributes read as undefined). */
  profile: { xp: number; awards: number; counts: Record<string, number | undefined> } | undefined;
  /** The kept days (day numbers). */
  keptDays: Set<number>;
  /** The achievements earned (ids of the achievement items). */
  achievements: Set<string>;
  /** The ids the progress item lists as earned (what the writer reads instead of the items). */
  listed: Set<string>;
  /** The history's items (every award the history keeps). */
  history: Record<string, unknown>[];
}

const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);

/** `items` with `pending` in place of the items of the same key (and added where there are none). */
export function withPending(
  items: ReadonlyArray<Record<string, unknown>>,
  pending: ReadonlyArray<Record<string, unknown>> = [],
): Array<Record<string, unknown>> {
  const keys = new Set(pending.map((item) => String(item.sk)));
  return [...items.filter((item) => !keys.has(String(item.sk))), ...pending];
}

/**
 * A reader's profile, kept days, achievements and history, as the table holds them now — with
 * `pending` history items in place of the stored ones (what a dry run of `history rebuild` would
 * write).
 */
export async function readerState(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  pending?: ReadonlyArray<Record<string, unknown> & { sk: string }>,
): Promise<ReaderState> {
  const [{ Item: profile }, { Item: progress }, achievements, history] = await Promise.all([
    dynamo.send(new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true })),
    dynamo.send(new GetCommand({ TableName: tableName, Key: progressKey(userId), ConsistentRead: true })),
    partitionItems({ dynamo, tableName }, userId, ACHIEVEMENT_SK_PREFIX),
    partitionItems({ dynamo, tableName }, userId, AWARD_SK_PREFIX),
  ]);
  return readerStateOf({ profile, progress, achievements, history }, pending);
}

/** A reader's state from their items as read (a consistent read, or an operator's snapshot of the table). */
export function readerStateOf(
  items: {
    profile: Record<string, unknown> | undefined;
    progress: Record<string, unknown> | undefined;
    achievements: ReadonlyArray<Record<string, unknown>>;
    history: ReadonlyArray<Record<string, unknown>>;
  },
  pending?: ReadonlyArray<Record<string, unknown> & { sk: string }>,
): ReaderState {
  const { profile, progress, achievements, history } = items;
  const days = progress?.days;
  const listed = progress?.achievements;
  return {
    profile: profile && {
      xp: numberOr(profile.xp, 0),
      awards: numberOr(profile.awards, 0),
      counts: Object.fromEntries(
        eventTypes.map((type) => {
          const count = profile[countAttribute(type)];
          return [type, typeof count === "number" ? count : undefined];
        }),
      ),
    },
    keptDays: days instanceof Set ? new Set([...days].map(Number)) : new Set(),
    achievements: new Set(achievements.flatMap((item) => achievementOfKey(item.sk) ?? [])),
    listed: listed instanceof Set ? new Set([...listed].map(String)) : new Set(),
    history: withPending(history, pending),
  };
}
