import { type DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import {
  isoWeekOf,
  isoWeekPlus,
  WEEK_SK_PREFIX,
  weekExpiresAt,
  weekKey,
  weekOfKey,
  weekXpOf,
} from "@rewards/core";
import { awardsSince, describeError, type WeekTable, writeWeek } from "@rewards/core/aws";
import { everyReader } from "../progress/repairProgress";

export interface RepairWeeksOptions {
  tableName: string;
  /** One reader; undefined: every reader with a profile (a scan). */
  userId?: string | undefined;
  /** Read and compare, write nothing. */
  dryRun: boolean;
  /** REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS, as the history's writer runs with them. */
  shards: number;
  keepWeeks: number;
  /** Epoch ms: which weeks are still kept. Date.now by default. */
  now?: () => number;
}

/** A week whose stored XP was not what the history sums (`from` 0: no item). */
export interface WeekChange {
  week: string;
  from: number;
  to: number;
}

export interface ReaderWeeks {
  userId: string;
  changed: WeekChange[];
  failed?: string;
}

export interface WeeksReport {
  dryRun: boolean;
  readers: ReaderWeeks[];
  totals: { readers: number; weeksChanged: number; failed: number };
}

/** The weeks still kept at `nowMs`, oldest first: the current one and the `keepWeeks` before it. */
export function keptWeeks(nowMs: number, keepWeeks: number): string[] {
  const current = isoWeekOf(nowMs);
  return Array.from({ length: keepWeeks + 1 }, (_, i) => isoWeekPlus(current, i - keepWeeks)).filter(
    (week) => weekExpiresAt(week, keepWeeks) * 1000 > nowMs,
  );
}

/** A reader's week items as stored: week → XP. */
async function storedWeeks(table: WeekTable, userId: string): Promise<Map<string, number>> {
  const weeks = new Map<string, number>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await table.dynamo.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :week)",
        ExpressionAttributeValues: { ":pk": weekKey(userId, "").pk, ":week": WEEK_SK_PREFIX },
        ProjectionExpression: "sk, xp",
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const week = weekOfKey(item.sk);
      if (week !== undefined) weeks.set(week, typeof item.xp === "number" ? item.xp : 0);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return weeks;
}

/**
 * Every kept week of a reader summed again from the history (docs/board.md#repair) and, where the
 * stored XP differs, put as the history's writer puts it (under its lock, so beside live traffic
 * the last put is still the one that read last). Idempotent: a week already right is read only.
 */
export async function repairWeeks(
  dynamo: DynamoDBDocumentClient,
  options: RepairWeeksOptions,
): Promise<WeeksReport> {
  const now = options.now ?? Date.now;
  const table: WeekTable = {
    dynamo,
    tableName: options.tableName,
    shards: options.shards,
    keepWeeks: options.keepWeeks,
    clock: now,
  };
  const readers: ReaderWeeks[] = [];
  const ids = options.userId === undefined ? everyReader(dynamo, options.tableName) : [options.userId];
  for await (const userId of ids) {
    const changed: WeekChange[] = [];
    try {
      const weeks = keptWeeks(now(), options.keepWeeks);
      const [oldest] = weeks;
      if (oldest === undefined) continue;
      const [awards, stored] = await Promise.all([
        awardsSince(table, userId, oldest),
        storedWeeks(table, userId),
      ]);
      for (const week of weeks) {
        const to = weekXpOf(awards, week);
        const from = stored.get(week);
        if (from === to || (from === undefined && to === 0)) continue;
        if (options.dryRun) changed.push({ week, from: from ?? 0, to });
        else {
          const written = await writeWeek(table, userId, week);
          changed.push({ week, from: written.was ?? 0, to: written.xp });
        }
      }
      readers.push({ userId, changed });
    } catch (error) {
      readers.push({ userId, changed, failed: describeError(error) });
    }
  }
  readers.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return {
    dryRun: options.dryRun,
    readers,
    totals: {
      readers: readers.length,
      weeksChanged: readers.reduce((sum, reader) => sum + reader.changed.length, 0),
      failed: readers.filter((reader) => reader.failed !== undefined).length,
    },
  };
}
