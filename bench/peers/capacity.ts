/**
 * DynamoDB's published sizing and pricing rules, as used to turn each worker's operations
 * into capacity units (on-demand bills the same units as requests):
 * - an item's size is the sum of its attribute names' and values' lengths: strings as UTF-8
 *   bytes, numbers as about one byte per two significant digits plus one;
 * - a standard write costs 1 WCU per 1 KB of the item written (rounded up); for an update,
 *   of the larger of the item before and after; a write whose condition fails still costs it;
 * - a transactional write costs 2 WCUs per 1 KB of each item in it. A cancelled transaction
 *   is counted here as if its items were written (the worst case for this worker: AWS does
 *   not publish what a cancellation consumes);
 * - a strongly consistent read costs 1 RCU per 4 KB.
 */
export function itemSizeBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name, "utf8");
    if (typeof value === "number") {
      const digits = String(Math.abs(value)).replace(/[.-]/g, "").replace(/^0+/, "").length || 1;
      size += Math.ceil(digits / 2) + 1;
    } else if (typeof value === "string") {
      size += Buffer.byteLength(value, "utf8");
    } else {
      size += Buffer.byteLength(JSON.stringify(value), "utf8");
    }
  }
  return size;
}

export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
export const transactionalWriteUnits = (bytes: number) => 2 * writeUnits(bytes);
export const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096));
