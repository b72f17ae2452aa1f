import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  type HistoryItem,
  historyItemOf,
  historyPutOf,
  historyRepairOf,
  intentKeyOfGuard,
} from "@rewards/core";
import { describeError, isConditionFailure } from "@rewards/core/aws";
import pLimit from "p-limit";
import { type GuardPage, guardPages } from "../guardPages";
import type { TableSnapshot } from "../repair/tableSnapshot";
import { keyText, storedHistoryItems } from "./storedHistoryItems";

export interface RebuildOptions {
  tableName: string;
  /** REWARDS_HISTORY_DAYS, as the writer reads it: the items' expiresAt. */
  historyDays: number;
  /** One user's awards; undefined: every user's. */
  userId?: string | undefined;
  /** Read and decide, write nothing. */
  dryRun: boolean;
  /** Epoch ms, what an item's retention is judged against. Date.now by default. */
  now?: () => number;
  /** Told of each item written (in a dry run, each that would be): what the progress repair then reads. */
  onItem?: (item: HistoryItem) => void;
  /**
   * The table as one pass read it (readTable): its guards and stored items are decided from,
   * nothing is read again (each put keeps its condition). Without it, the guards are scanned and
   * each page's items read consistently.
   */
  snapshot?: TableSnapshot | undefined;
  /** Told after each guard decided: guards done, guards in all (known with a snapshot; 0 without). */
  onProgress?: (done: number, total: number) => void;
  /** Stops at the next guard (Ctrl-C): the report then says `interrupted`. */
  signal?: AbortSignal | undefined;
}

/** Puts in flight at once: the SDK's connections stay busy while each waits on its answer. */
const PUTS_AT_ONCE = 8;

/** What the rebuild did (or, in a dry run, would do) to one user's history, by intent key. */
export interface UserRebuild {
  userId: string;
  /** Items there were none of: written. */
  written: string[];
  /** Items that differed from their guard's: rewritten, with the attributes that differed. */
  corrected: Array<{ intentKey: string; fields: string[] }>;
  /** Items already right: not written. */
  unchanged: number;
  /** Awards whose history retention has passed: not written (DynamoDB's TTL deletes such items). */
  expired: number;
  /** Items revoked while their guard is not: their revocation kept (docs/operations.md, "Rebuilding the history"). */
  keptRevoked: string[];
  /** Not written: the item was revoked after it was read (the writer's revoked item stands). */
  skipped: string[];
  /** Puts that failed (after the SDK's retries), with why. */
  failed: Array<{ intentKey: string; reason: string }>;
}

export interface RebuildTotals {
  guards: number;
  users: number;
  written: number;
  corrected: number;
  unchanged: number;
  expired: number;
  keptRevoked: number;
  skipped: number;
  failed: number;
  unreadable: number;
}

export interface RebuildReport {
  dryRun: boolean;
  /** Stopped before every guard was decided (Ctrl-C): what it reports was done, and a second run finishes. */
  interrupted: boolean;
  /** The user asked for, or null for every user (--all). */
  userId: string | null;
  historyDays: number;
  totals: RebuildTotals;
  /** Every user with a guard on the table, by user id. */
  users: UserRebuild[];
  /** Guards the writer cannot read either: no history item can be derived from them. */
  unreadable: Array<{ pk: string; reason: string }>;
}

function emptyUser(userId: string): UserRebuild {
  return {
    userId,
    written: [],
    corrected: [],
    unchanged: 0,
    expired: 0,
    keptRevoked: [],
    skipped: [],
    failed: [],
  };
}

function totalsOf(users: readonly UserRebuild[], guards: number, unreadable: number): RebuildTotals {
  const sum = (count: (user: UserRebuild) => number) => users.reduce((total, user) => total + count(user), 0);
  return {
    guards,
    users: users.length,
    written: sum((u) => u.written.length),
    corrected: sum((u) => u.corrected.length),
    unchanged: sum((u) => u.unchanged),
    expired: sum((u) => u.expired),
    keptRevoked: sum((u) => u.keptRevoked.length),
    skipped: sum((u) => u.skipped.length),
    failed: sum((u) => u.failed.length),
    unreadable,
  };
}

/**
 * Rewrites users' history items from the guards still on the table (docs/operations.md,
 * "Rebuilding the history"): page by page, each guard's item is derived as the writer derives
 * it, compared with the item the table holds (read consistently), and written only when it is
 * missing or differs, with the writer's own put (an unrevoked item on the condition that the
 * stored one is not revoked). So a rebuild of a right history writes nothing, and a second
 * rebuild finds nothing to change. Nothing is deleted: an item whose guard is gone (expired,
 * or replaced by a later award of its intent) stays as it is.
 */
export async function rebuildHistory(
  dynamo: DynamoDBDocumentClient,
  options: RebuildOptions,
): Promise<RebuildReport> {
  const now = options.now ?? Date.now;
  const users = new Map<string, UserRebuild>();
  const unreadable: RebuildReport["unreadable"] = [];
  const puts = pLimit(PUTS_AT_ONCE);
  const total = options.snapshot
    ? [...options.snapshot.readers.values()].reduce((sum, reader) => sum + reader.guards.length, 0)
    : 0;
  let guards = 0;
  let interrupted = false;
  for await (const page of pagesOf(dynamo, options)) {
    unreadable.push(...page.unreadable);
    // Each guard with the key of its item, as the writer derives it.
    const keyed = page.guards.map((guard) => {
      const { pk, sk } = historyItemOf(guard, { historyDays: options.historyDays });
      return { guard, key: { pk, sk } };
    });
    const stored =
      page.stored ??
      (await storedHistoryItems(
        dynamo,
        options.tableName,
        keyed.map(({ key }) => key),
      ));
    const nowMs = now();
    const decided: Array<Promise<void>> = [];
    for (const { guard, key } of keyed) {
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      guards++;
      const user = users.get(guard.userId) ?? emptyUser(guard.userId);
      users.set(guard.userId, user);
      const repair = historyRepairOf(guard, stored.get(keyText(key)), {
        historyDays: options.historyDays,
        nowMs,
      });
      if (repair.kind === "expired") user.expired++;
      else if (repair.kind !== "missing" && repair.keptRevocation)
        user.keptRevoked.push(intentKeyOfGuard(guard.pk));
      if (repair.kind === "expired" || repair.kind === "unchanged") {
        if (repair.kind === "unchanged") user.unchanged++;
        options.onProgress?.(guards, total);
        continue;
      }
      const done = guards;
      decided.push(
        puts(async () => {
          // Checked as each put starts: a page's puts are all queued at once.
          if (options.signal?.aborted) {
            interrupted = true;
            return;
          }
          const written = options.dryRun ? "written" : await put(dynamo, options.tableName, repair.item);
          if (written === "written") options.onItem?.(repair.item);
          const intentKey = repair.item.intentKey;
          if (written === "skipped") user.skipped.push(intentKey);
          else if (written !== "written") user.failed.push({ intentKey, reason: written.reason });
          else if (repair.kind === "missing") user.written.push(intentKey);
          else user.corrected.push({ intentKey, fields: repair.fields });
          options.onProgress?.(done, total);
        }),
      );
    }
    await Promise.all(decided);
    if (interrupted) break;
  }
  const byUser = [...users.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  // Puts answer in any order: each list in intent key order, so a report reads the same every run.
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const user of byUser) {
    user.written.sort(byKey);
    user.skipped.sort(byKey);
    user.corrected.sort((a, b) => byKey(a.intentKey, b.intentKey));
    user.failed.sort((a, b) => byKey(a.intentKey, b.intentKey));
  }
  return {
    dryRun: options.dryRun,
    interrupted,
    userId: options.userId ?? null,
    historyDays: options.historyDays,
    totals: totalsOf(byUser, guards, unreadable.length),
    users: byUser,
    unreadable,
  };
}

/**
 * The guards to rebuild from, page by page: the snapshot's (with the items it holds, by key), or
 * the table's scanned (their items then read consistently).
 */
async function* pagesOf(
  dynamo: DynamoDBDocumentClient,
  options: RebuildOptions,
): AsyncGenerator<
  Pick<GuardPage, "guards" | "unreadable"> & { stored?: Map<string, Record<string, unknown>> }
> {
  const { snapshot } = options;
  if (snapshot === undefined) {
    yield* guardPages(dynamo, options.tableName, { userId: options.userId });
    return;
  }
  const guards = [...snapshot.readers.values()]
    .filter((reader) => options.userId === undefined || reader.userId === options.userId)
    .flatMap((reader) => reader.guards);
  const stored = new Map(
    [...snapshot.readers.values()].flatMap((reader) =>
      reader.history.map((item) => [keyText({ pk: String(item.pk), sk: String(item.sk) }), item] as const),
    ),
  );
  // What the snapshot shows missing or different is read again, consistently: the live writer
  // may have put it since the scan passed its partition (a put then would only repeat it, with
  // this operator's retention instead of the one it was written with).
  const nowMs = (options.now ?? Date.now)();
  const candidates = guards.flatMap((guard) => {
    const { pk, sk } = historyItemOf(guard, { historyDays: options.historyDays });
    const repair = historyRepairOf(guard, stored.get(keyText({ pk, sk })), {
      historyDays: options.historyDays,
      nowMs,
    });
    return repair.kind === "missing" || repair.kind === "wrong" ? [{ pk, sk }] : [];
  });
  const fresh = await storedHistoryItems(dynamo, options.tableName, candidates);
  for (const key of candidates) {
    const item = fresh.get(keyText(key));
    if (item === undefined) stored.delete(keyText(key));
    else stored.set(keyText(key), item);
  }
  yield { guards, unreadable: snapshot.unreadable, stored };
}

/** The writer's own put of an item: `skipped` when its condition failed (the stored item is revoked). */
async function put(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  item: HistoryItem,
): Promise<"written" | "skipped" | { reason: string }> {
  try {
    await dynamo.send(new PutCommand(historyPutOf(item, tableName)));
    return "written";
  } catch (error) {
    if (isConditionFailure(error)) return "skipped";
    return { reason: describeError(error) };
  }
}
