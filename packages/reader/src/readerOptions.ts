import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DEFAULT_BOARD_SHARDS, DEFAULT_RULES_REFRESH_SECONDS, quoteInput } from "@rewards/core";
import { InvalidReaderOption } from "./invalidReaderOption";

export interface ReaderOptions {
  /** The rewards table's name (the deploy output `tableName`). */
  tableName: string;
  /**
   * A `DynamoDBClient` of yours (its region, endpoint, credentials, retries). Without one
   * the reader builds its own, left to the SDK's own resolution (`AWS_REGION`,
   * `AWS_ENDPOINT_URL_DYNAMODB`, profiles, roles).
   */
  client?: DynamoDBClient;
  /**
   * The daily XP cap the worker runs with (`REWARDS_DAILY_XP_CAP`), as the deploy outputs it
   * (`dailyXpCap`): a positive whole number, or 0 or absent for no cap
   * (docs/reading.md#no-cap). It decides where `today` is read from and adds `cap` and `left`.
   */
  dailyCap?: number;
  /**
   * The board's shard count the history's writer runs with (`REWARDS_BOARD_SHARDS`, the deploy
   * output `boardShards`): 32 unless given. Fewer than the writer's misses entries
   * (docs/board.md#sharding).
   */
  boardShards?: number;
  /**
   * How often the reader re-reads the rules' `CURRENT` at most, in seconds (the stage's
   * `REWARDS_RULES_REFRESH_SECONDS`): 30 unless given (docs/reading.md#the-rules).
   */
  rulesRefreshSeconds?: number;
  /** Where "now" comes from (today's UTC date); `() => new Date()` unless given. For tests. */
  clock?: () => Date;
}

/** A value as a message shows it: text quoted, so `"50"` is told from `50` (and at most 64 characters of it). */
function shown(value: unknown): string {
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "an array" : "an object";
  return quoteInput(value);
}

/** The cap a reader runs with: undefined for none. Throws InvalidReaderOption naming the first bad option. */
export function validateReaderOptions(options: ReaderOptions): {
  dailyCap: number | undefined;
  boardShards: number;
  rulesRefreshSeconds: number;
} {
  if (typeof options !== "object" || options === null)
    throw new InvalidReaderOption("options", `an object is required, not ${shown(options)}`);
  if (typeof options.tableName !== "string" || options.tableName.length === 0)
    throw new InvalidReaderOption(
      "tableName",
      `the table's name is required, not ${shown(options.tableName)}`,
    );
  const cap: unknown = options.dailyCap;
  if (cap !== undefined && !(typeof cap === "number" && Number.isSafeInteger(cap) && cap >= 0))
    throw new InvalidReaderOption(
      "dailyCap",
      `a whole number of XP, 0 or absent for no cap (the deploy output dailyXpCap), not ${shown(cap)}`,
    );
  if (options.clock !== undefined && typeof options.clock !== "function")
    throw new InvalidReaderOption("clock", `a function returning a Date, not ${shown(options.clock)}`);
  const shards: unknown = options.boardShards;
  if (
    shards !== undefined &&
    !(typeof shards === "number" && Number.isInteger(shards) && shards >= 1 && shards <= 1000)
  )
    throw new InvalidReaderOption(
      "boardShards",
      `a whole number from 1 to 1,000 (the deploy output boardShards), not ${shown(shards)}`,
    );
  const refresh: unknown = options.rulesRefreshSeconds;
  if (
    refresh !== undefined &&
    !(typeof refresh === "number" && Number.isInteger(refresh) && refresh >= 1 && refresh <= 3600)
  )
    throw new InvalidReaderOption(
      "rulesRefreshSeconds",
      `a whole number of seconds from 1 to 3,600 (the stage's REWARDS_RULES_REFRESH_SECONDS), not ${shown(refresh)}`,
    );
  return {
    dailyCap: cap === undefined || cap === 0 ? undefined : cap,
    boardShards: shards === undefined ? DEFAULT_BOARD_SHARDS : shards,
    rulesRefreshSeconds: refresh === undefined ? DEFAULT_RULES_REFRESH_SECONDS : refresh,
  };
}
