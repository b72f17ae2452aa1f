import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { profileKey, userOfKey } from "@rewards/core";
import pLimit from "p-limit";
import { scanTable } from "../tableScan";
import type { TableSnapshot } from "./tableSnapshot";

/** Readers repaired at once: each waits on its own reads and writes. */
const READERS_AT_ONCE = 8;

/** Every reader with a profile, paging the table (a full scan: an operator's pass). */
export async function* everyReader(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
): AsyncGenerator<string> {
  const profile = profileKey("");
  for await (const page of scanTable(dynamo, {
    TableName: tableName,
    FilterExpression: "sk = :profile",
    ExpressionAttributeValues: { ":profile": profile.sk },
    ProjectionExpression: "pk",
  }))
    for (const item of page.Items ?? []) {
      const userId = userOfKey(item.pk);
      if (userId !== undefined) yield userId;
    }
}

/**
 * The readers a repair pass goes through, and how many (0 while not known): the snapshot's with
 * a profile, in user id order; without one, the one named, or every profile scanned.
 */
export function readersOf(
  dynamo: DynamoDBDocumentClient,
  options: { tableName: string; userId?: string | undefined; snapshot?: TableSnapshot | undefined },
): { ids: AsyncIterable<string> | Iterable<string>; total: number } {
  const { snapshot, userId } = options;
  if (snapshot === undefined)
    return { ids: userId === undefined ? everyReader(dynamo, options.tableName) : [userId], total: 0 };
  const ids = [...snapshot.readers.values()]
    .filter((reader) => reader.profile !== undefined && (userId === undefined || reader.userId === userId))
    .map((reader) => reader.userId)
    .sort();
  return { ids, total: ids.length };
}

/**
 * `repair` for each reader, READERS_AT_ONCE at a time. Once `signal` is aborted (Ctrl-C) no
 * reader starts — checked as each one starts, since the loop queues them all at once — and it
 * says it was interrupted.
 */
export async function forEachReader(
  ids: AsyncIterable<string> | Iterable<string>,
  signal: AbortSignal | undefined,
  repair: (userId: string) => Promise<void>,
): Promise<boolean> {
  const limit = pLimit(READERS_AT_ONCE);
  const running: Array<Promise<void>> = [];
  let interrupted = false;
  for await (const userId of ids) {
    if (signal?.aborted) {
      interrupted = true;
      break;
    }
    running.push(
      limit(async () => {
        if (signal?.aborted) {
          interrupted = true;
          return;
        }
        await repair(userId);
      }),
    );
  }
  await Promise.all(running);
  return interrupted;
}
