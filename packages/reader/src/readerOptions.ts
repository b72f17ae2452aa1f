import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

export interface ReaderOptions {
  /** The rewards table's name. */
  tableName: string;
  /**
   * A `DynamoDBClient` of yours (its region, endpoint, credentials, retries). Without one
   * the reader builds its own, left to the SDK's own resolution (`AWS_REGION`,
   * `AWS_ENDPOINT_URL_DYNAMODB`, profiles, roles).
   */
  client?: DynamoDBClient;
  /**
   * The daily XP cap the worker runs with (`REWARDS_DAILY_XP_CAP`), a positive integer;
   * absent: no cap. It decides where `today` is read from and adds `cap` and `left` to it.
   */
  dailyCap?: number;
  /** Where "now" comes from (today's UTC date); `() => new Date()` unless given. For tests. */
  clock?: () => Date;
}

/** Throws a RangeError naming the first bad option. */
export function validateReaderOptions(options: ReaderOptions): void {
  if (typeof options !== "object" || options === null) throw new RangeError("options: an object is required");
  if (typeof options.tableName !== "string" || options.tableName.length === 0)
    throw new RangeError("tableName: the table's name is required");
  const cap = options.dailyCap;
  if (cap !== undefined && !(Number.isSafeInteger(cap) && cap > 0))
    throw new RangeError(`dailyCap: a positive integer or absent (no cap), not ${String(cap)}`);
  if (options.clock !== undefined && typeof options.clock !== "function")
    throw new RangeError("clock: a function returning a Date");
}
