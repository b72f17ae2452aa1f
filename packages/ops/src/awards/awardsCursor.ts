import { createHash } from "node:crypto";
import { PARTITION_KEY, SORT_KEY } from "@rewards/core";

/** Which awards a listing names: an absent field takes every one. */
export interface AwardFilter {
  type?: string | undefined;
  userId?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

/** A table key as a scan reads it: the item after which the scan goes on. */
export type ScanKey = Record<string, string>;

/**
 * The table and filter a cursor was printed for, in 16 hex digits. A scan's place holds for any
 * filter, but a cursor resumed with other options, or on another stage's table, would list
 * another selection from the middle of a table and look complete: so it is refused.
 */
function filterDigest(filter: AwardFilter, tableName: string): string {
  const fields = [
    tableName,
    filter.type,
    filter.userId,
    filter.since?.toISOString(),
    filter.until?.toISOString(),
  ];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex").slice(0, 16);
}

/** `--from`'s text: where the scan goes on, and for which filter, base64url so a shell passes it as it is. */
export function awardsCursor(key: ScanKey, filter: AwardFilter, tableName: string): string {
  return Buffer.from(JSON.stringify({ key, filter: filterDigest(filter, tableName) })).toString("base64url");
}

/** The key a cursor resumes after, or why it is not a cursor of this listing. */
export function readAwardsCursor(
  text: string,
  filter: AwardFilter,
  tableName: string,
): { ok: true; key: ScanKey } | { ok: false; reason: string } {
  const cursor = keyAndFilterOf(text);
  if (cursor === undefined) return { ok: false, reason: "not a cursor `rewards awards` printed" };
  if (cursor.filter !== filterDigest(filter, tableName))
    return {
      ok: false,
      reason:
        "a cursor of another listing: give the --type, --user, --since and --until it was printed with, on the same TABLE_NAME",
    };
  return { ok: true, key: cursor.key };
}

/** The cursor's two fields, when it has exactly those and a key of the table's two key attributes. */
function keyAndFilterOf(text: string): { key: ScanKey; filter: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { key, filter, ...rest } = json as { key?: unknown; filter?: unknown };
  if (typeof filter !== "string" || Object.keys(rest).length > 0) return undefined;
  if (typeof key !== "object" || key === null) return undefined;
  const names = Object.keys(key).sort();
  const values = Object.values(key);
  const isKey =
    names.join() === [PARTITION_KEY, SORT_KEY].sort().join() &&
    values.every((value) => typeof value === "string" && value !== "");
  return isKey ? { key: key as ScanKey, filter } : undefined;
}
