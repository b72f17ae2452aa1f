import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, paginateQuery, paginateScan } from "@aws-sdk/lib-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  AWARD_SK_PREFIX,
  describeIssues,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  guardImageSchema,
  profileKey,
  progressKey,
  toIssues,
  userOfKey,
  WEEK_SK_PREFIX,
} from "@rewards/core";
import { SCAN_PAGE_ITEMS } from "../tableScan";

type Item = Record<string, unknown>;

/** What the table held of one reader when it was read: their guards and their partition. */
export interface ReaderItems {
  userId: string;
  /** Their guards (the awards on the table), readable ones. */
  guards: GuardImage[];
  profile: Item | undefined;
  /** The progress item: kept days and the achievements listed. */
  progress: Item | undefined;
  /** History items (`AWARD#…`). */
  history: Item[];
  /** Achievement items (`ACHIEVEMENT#…`). */
  achievements: Item[];
  /** Week items (`WEEK#…`). */
  weeks: Item[];
}

/**
 * The table as one pass read it, by reader. Eventually consistent, read once: what an
 * operator's repair decides from, writing each change under the condition that keeps it safe
 * beside live traffic (docs/operations.md, "Repair at scale").
 */
export interface TableSnapshot {
  readers: Map<string, ReaderItems>;
  /** Guards the stream's consumers could not read either. */
  unreadable: Array<{ pk: string; reason: string }>;
  /** Items read. */
  items: number;
}

export interface ReadTableOptions {
  /** Parallel scan segments (DynamoDB's TotalSegments). */
  segments?: number;
  /** Told after each page: items read so far, and the table's item count (DescribeTable's, about 6 hours old on AWS). */
  onProgress?: (read: number, estimate: number) => void;
  /** Stops reading at the next page (Ctrl-C); the snapshot then says `complete: false`. */
  signal?: AbortSignal | undefined;
}

/** Parallel scan segments by default: DynamoDB serves each from its own partitions. */
export const SCAN_SEGMENTS = 4;

function emptyReader(userId: string): ReaderItems {
  return {
    userId,
    guards: [],
    profile: undefined,
    progress: undefined,
    history: [],
    achievements: [],
    weeks: [],
  };
}

/** Files one item under its reader; items of no reader (the board's, a future kind) are left out. */
function file(snapshot: TableSnapshot, item: Item): void {
  snapshot.items++;
  const pk = String(item.pk);
  const sk = String(item.sk);
  if (pk.startsWith(GUARD_PK_PREFIX) && sk === GUARD_SK) {
    const guard = guardImageSchema.safeParse(item);
    if (!guard.success) {
      snapshot.unreadable.push({ pk, reason: describeIssues(toIssues(guard.error.issues)) });
      return;
    }
    readerOf(snapshot, guard.data.userId).guards.push(guard.data);
    return;
  }
  const userId = userOfKey(pk);
  if (userId === undefined) return;
  const reader = readerOf(snapshot, userId);
  if (sk === profileKey(userId).sk) reader.profile = item;
  else if (sk === progressKey(userId).sk) reader.progress = item;
  else if (sk.startsWith(AWARD_SK_PREFIX)) reader.history.push(item);
  else if (sk.startsWith(ACHIEVEMENT_SK_PREFIX)) reader.achievements.push(item);
  else if (sk.startsWith(WEEK_SK_PREFIX)) reader.weeks.push(item);
}

function readerOf(snapshot: TableSnapshot, userId: string): ReaderItems {
  let reader = snapshot.readers.get(userId);
  if (reader === undefined) {
    reader = emptyReader(userId);
    snapshot.readers.set(userId, reader);
  }
  return reader;
}

/**
 * The whole table, read once by a parallel scan of `segments` segments, each paged at
 * SCAN_PAGE_ITEMS items (the embedded DynamoDB answers one request at a time: small pages keep
 * each under the clients' timeout). Readers are every user with a guard or a partition.
 */
export async function readTable(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  options: ReadTableOptions = {},
): Promise<TableSnapshot & { complete: boolean }> {
  const segments = options.segments ?? SCAN_SEGMENTS;
  const snapshot: TableSnapshot = { readers: new Map(), unreadable: [], items: 0 };
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  const estimate = Table?.ItemCount ?? 0;
  let complete = true;
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      for await (const page of paginateScan(
        { client: dynamo, pageSize: SCAN_PAGE_ITEMS },
        { TableName: tableName, Segment: segment, TotalSegments: segments },
      )) {
        for (const item of page.Items ?? []) file(snapshot, item);
        options.onProgress?.(snapshot.items, Math.max(estimate, snapshot.items));
        if (options.signal?.aborted) {
          complete = false;
          return;
        }
      }
    }),
  );
  return { ...snapshot, complete };
}

/**
 * One reader: their partition by a consistent Query, and their guards — keyed by intent, so
 * found only by a scan filtered to the guards of `userId` (the guard's own attribute: an intent
 * key escapes or hashes its parts), in parallel segments (docs/operations.md says what it costs).
 */
export async function readReader(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  options: Pick<ReadTableOptions, "segments"> = {},
): Promise<TableSnapshot & { complete: boolean }> {
  const snapshot: TableSnapshot = {
    readers: new Map([[userId, emptyReader(userId)]]),
    unreadable: [],
    items: 0,
  };
  const segments = options.segments ?? SCAN_SEGMENTS;
  const partition = (async () => {
    for await (const page of paginateQuery(
      { client: dynamo },
      {
        TableName: tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": profileKey(userId).pk },
        ConsistentRead: true,
      },
    ))
      for (const item of page.Items ?? []) file(snapshot, item);
  })();
  const guards = Array.from({ length: segments }, async (_, segment) => {
    for await (const page of paginateScan(
      { client: dynamo, pageSize: SCAN_PAGE_ITEMS },
      {
        TableName: tableName,
        Segment: segment,
        TotalSegments: segments,
        FilterExpression: "begins_with(pk, :guards) AND sk = :guard AND userId = :user",
        ExpressionAttributeValues: {
          ":guards": GUARD_PK_PREFIX,
          ":guard": GUARD_SK,
          ":user": userId,
        },
      },
    ))
      for (const item of page.Items ?? []) file(snapshot, item);
  });
  await Promise.all([partition, ...guards]);
  return { ...snapshot, complete: true };
}
