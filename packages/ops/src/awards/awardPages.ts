import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type GuardImage, guardKey, intentKeyOfGuard } from "@rewards/core";
import { type GuardPage, guardPages } from "../guardPages";
import { type AwardFilter, awardsCursor, type ScanKey } from "./awardsCursor";

/** One award as `rewards awards` lists it: its guard, in the words of `reward.granted`. */
export interface ListedAward {
  intentKey: string;
  userId: string;
  type: string;
  /** XP paid (0 when the daily cap left nothing). */
  xp: number;
  /** What the rule asked, when the daily cap paid less. */
  requested?: number;
  eventId: string;
  awardedAt: string;
  revokedAt?: string;
  revokedReason?: string;
}

export interface AwardsPage {
  awards: ListedAward[];
  /** Guards of the window no reader can read (an unknown type, a malformed field): not listed. */
  unreadable: Array<{ pk: string; reason: string }>;
  /** Where the listing goes on after this page (`--from`); absent when nothing is left. */
  cursor?: string;
  /** What reading the page cost, as DynamoDB said or, where it did not, estimated. */
  readUnits: number;
  estimated: boolean;
}

export interface AwardsOptions {
  /** Resume after this key (a cursor read back by readAwardsCursor). */
  from?: ScanKey | undefined;
  /** At most this many awards, then a cursor. */
  limit?: number | undefined;
  /** Epoch ms: a guard expired at it is gone, as it is for the worker and `rewards revoke`. */
  now: number;
}

const awardOf = (guard: GuardImage): ListedAward => ({
  intentKey: intentKeyOfGuard(guard.pk),
  userId: guard.userId,
  type: guard.type,
  xp: guard.amount,
  ...(guard.requested === undefined ? {} : { requested: guard.requested }),
  eventId: guard.eventId,
  awardedAt: guard.awardedAt,
  ...(guard.revokedAt === undefined ? {} : { revokedAt: guard.revokedAt }),
  ...(guard.revokedReason === undefined ? {} : { revokedReason: guard.revokedReason }),
});

/** A scan's (eventually consistent) cost: half a unit per 4 KB of the items it read, 0.5 at least. */
const READ_UNIT_BYTES = 4096;
/** A guard's size when a page returned none to measure: ~0.35 KB (docs/operations.md, the rebuild's costs). */
const GUARD_BYTES = 350;

/**
 * DynamoDB's figure when it gave one; else the items the page read (the filter's rejects
 * included, which the client never sees) at the size of those it returned.
 */
function pageUnits(page: GuardPage): { units: number; estimated: boolean } {
  if (page.readUnits !== undefined) return { units: page.readUnits, estimated: false };
  const returned = page.guards.length + page.unreadable.length;
  const itemBytes = returned > 0 ? page.bytes / returned : GUARD_BYTES;
  return { units: Math.max(1, Math.ceil((itemBytes * page.scanned) / READ_UNIT_BYTES)) / 2, estimated: true };
}

/**
 * The live awards (unexpired guards) the filter names, page by page as the scan reads them
 * (no index finds guards by type or user: docs/operations.md says what a scan costs). With
 * `limit`, the page that reaches it is cut there and its cursor is the last listed award's
 * own key: the scan goes on right after it, so a resumed listing repeats and skips nothing.
 */
export async function* awardPages(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  filter: AwardFilter,
  options: AwardsOptions,
): AsyncGenerator<AwardsPage> {
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  const window = { ...filter, liveAt: Math.floor(options.now / 1000) };
  for await (const page of guardPages(dynamo, tableName, window, options.from)) {
    const { units, estimated } = pageUnits(page);
    const awards = page.guards.map(awardOf);
    const listed = awards.slice(0, left);
    left -= listed.length;
    const cut = listed.length < awards.length;
    const last = listed.at(-1);
    const resumeAfter = cut && last ? guardKey(last.intentKey) : page.lastKey;
    yield {
      awards: listed,
      unreadable: page.unreadable,
      ...(resumeAfter ? { cursor: awardsCursor(resumeAfter as ScanKey, filter, tableName) } : {}),
      readUnits: units,
      estimated,
    };
    if (left === 0) return;
  }
}

export interface AwardsListing {
  listed: number;
  readUnits: number;
  /** Whether some page's units were estimated (DynamoDB did not say them). */
  estimated: boolean;
  /** Where to go on (`--from`) when it stopped before the scan's end; absent when it read to the end. */
  cursor?: string;
  unreadable: Array<{ pk: string; reason: string }>;
}

/**
 * Hands every page's awards to `onPage` (awaited: a page is shown before the next is read),
 * until the scan ends, `limit` is reached, or `stop()` says so after a page: its cursor then
 * resumes right after what was shown.
 */
export async function listAwards(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  filter: AwardFilter,
  options: AwardsOptions & {
    onPage: (awards: ListedAward[]) => Promise<void> | undefined;
    stop?: () => boolean;
  },
): Promise<AwardsListing> {
  const listing: AwardsListing = { listed: 0, readUnits: 0, estimated: false, unreadable: [] };
  for await (const page of awardPages(dynamo, tableName, filter, options)) {
    listing.listed += page.awards.length;
    listing.readUnits += page.readUnits;
    listing.estimated ||= page.estimated;
    listing.unreadable.push(...page.unreadable);
    await options.onPage(page.awards);
    if (page.cursor === undefined) delete listing.cursor;
    else listing.cursor = page.cursor;
    if (options.stop?.()) break;
  }
  return listing;
}
