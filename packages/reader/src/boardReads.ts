import type { AttributeValue, QueryCommandInput, QueryCommandOutput } from "@aws-sdk/client-dynamodb";
import { marshall, unmarshall } from "@aws-sdk/util-dynamodb";
import {
  BOARD_INDEX,
  type BoardEntry,
  type BoardPosition,
  boardPageOf,
  boardPartition,
  boardXpPrefix,
  type RankReading,
  rankAfterCount,
  rankOf,
  type ShardTop,
} from "@rewards/core";

/**
 * The board's reads (docs/board.md): every shard of a week queried at once on the board index,
 * one round trip; what the entries mean is core's (boardRanks.ts).
 */
export type Query = (input: QueryCommandInput) => Promise<QueryCommandOutput>;

export interface BoardTable {
  tableName: string;
  /** The writer's REWARDS_BOARD_SHARDS (or more: an empty shard costs a query, no entry). */
  shards: number;
}

/**
 * A shard's first entries the profile reads to rank its reader. A keys-only index entry is read
 * as its four keys (pk, sk, boardPk, boardSk: about 90 bytes with a 12-character user id), so
 * 44 fit in 4 KB: half a read unit. The top 1,000 spread over 32 shards put some 31 in each; a
 * shard with 44 of them is rare, and then costs a second call (countAhead).
 */
export const RANK_WINDOW = 44;

const shardsOf = (table: BoardTable) => Array.from({ length: table.shards }, (_, shard) => shard);

function shardQuery(table: BoardTable, week: string, shard: number, after?: string): QueryCommandInput {
  const values: Record<string, string> = { ":shard": boardPartition(week, shard) };
  if (after !== undefined) values[":after"] = after;
  return {
    TableName: table.tableName,
    IndexName: BOARD_INDEX,
    KeyConditionExpression:
      after === undefined ? "boardPk = :shard" : "boardPk = :shard AND boardSk > :after",
    ExpressionAttributeValues: marshall(values),
    ProjectionExpression: "boardSk",
    ReturnConsumedCapacity: "TOTAL",
  };
}

const sortKeysOf = (answer: QueryCommandOutput): string[] =>
  (answer.Items ?? []).map((item) => String(unmarshall(item).boardSk));

/** One page: each shard's first `limit` + 1 entries after `from`, merged and ranked. */
export async function boardPage(
  query: Query,
  table: BoardTable,
  week: string,
  limit: number,
  from?: BoardPosition,
): Promise<{ entries: BoardEntry[]; next?: BoardPosition }> {
  const answers = await Promise.all(
    shardsOf(table).map((shard) =>
      query({ ...shardQuery(table, week, shard, from?.after), Limit: limit + 1 }),
    ),
  );
  return boardPageOf(answers.map(sortKeysOf), limit, from);
}

/** Each shard's first RANK_WINDOW entries, and where each stopped. */
export async function shardTops(
  query: Query,
  table: BoardTable,
  week: string,
): Promise<Array<ShardTop & { lastKey?: Record<string, AttributeValue> }>> {
  const answers = await Promise.all(
    shardsOf(table).map((shard) => query({ ...shardQuery(table, week, shard), Limit: RANK_WINDOW })),
  );
  return answers.map((answer) => ({
    sortKeys: sortKeysOf(answer),
    more: answer.LastEvaluatedKey !== undefined,
    ...(answer.LastEvaluatedKey ? { lastKey: answer.LastEvaluatedKey } : {}),
  }));
}

/** The readers of one shard with more than `xp`, past `lastKey` (every page of a COUNT). */
async function countAhead(
  query: Query,
  table: BoardTable,
  week: string,
  shard: number,
  xp: number,
  lastKey: Record<string, AttributeValue> | undefined,
): Promise<number> {
  let ahead = 0;
  let start = lastKey;
  do {
    const answer = await query({
      TableName: table.tableName,
      IndexName: BOARD_INDEX,
      KeyConditionExpression: "boardPk = :shard AND boardSk < :xp",
      ExpressionAttributeValues: marshall({
        ":shard": boardPartition(week, shard),
        ":xp": boardXpPrefix(xp),
      }),
      Select: "COUNT",
      ExclusiveStartKey: start,
      ReturnConsumedCapacity: "TOTAL",
    });
    ahead += answer.Count ?? 0;
    start = answer.LastEvaluatedKey;
  } while (start !== undefined);
  return ahead;
}

/** A reader's rank from the shards' tops, counting further only where a top was all ahead. */
export async function rankFromTops(
  query: Query,
  table: BoardTable,
  week: string,
  userId: string,
  xp: number,
  tops: Array<ShardTop & { lastKey?: Record<string, AttributeValue> }>,
): Promise<number | undefined> {
  let reading: RankReading = rankOf(userId, xp, tops);
  if (reading.kind === "countMore") {
    const { ahead, shards } = reading;
    const more = await Promise.all(
      shards.map((shard) => countAhead(query, table, week, shard, xp, tops[shard]?.lastKey)),
    );
    reading = rankAfterCount(
      ahead,
      more.reduce((sum, count) => sum + count, 0),
    );
  }
  return reading.kind === "ranked" ? reading.rank : undefined;
}
