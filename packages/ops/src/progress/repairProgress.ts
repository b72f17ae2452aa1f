import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  achievementsOnTimeline,
  compileVersion,
  countAttribute,
  type EarnedOnTimeline,
  eventTypes,
  type HistoryItem,
  profileKey,
  progressKey,
  type TimedAchievement,
  timelineAwardOf,
} from "@rewards/core";
import {
  changeKeptDays,
  describeError,
  historyItemsOf,
  isConditionFailure,
  overtakenDays,
  settleAchievements,
  settledByGuards,
  settledWith,
} from "@rewards/core/aws";
import { forEachReader, readersOf } from "../repair/readerPass";
import type { ReaderItems, TableSnapshot } from "../repair/tableSnapshot";
import { currentRulesOrFail } from "../rules/rulesVersions";
import { type ProgressRepair, progressRepairOf } from "./progressRepair";
import { type ReaderState, readerState, readerStateOf } from "./readerState";

export interface RepairProgressOptions {
  tableName: string;
  /** One reader; undefined: every reader with a profile. */
  userId?: string | undefined;
  /** Also the counts per type (the backfill of readers paid before counts existed). */
  counts: boolean;
  /** Read and decide, write nothing. */
  dryRun: boolean;
  /** By user: history items a dry run of `history rebuild` would write, read in place of the stored ones. */
  pending?: ReadonlyMap<string, readonly HistoryItem[]>;
  /**
   * The table as one pass read it (readTable): the readers are those in it with a profile, and a
   * reader it shows right costs nothing more; one it shows anything to do for is read again
   * consistently and decided as without it (rightInSnapshot).
   */
  snapshot?: TableSnapshot | undefined;
  /** Told after each reader: readers done, readers in all (0 while not known). */
  onProgress?: (done: number, total: number) => void;
  /** Stops before the next reader (Ctrl-C): the report then says `interrupted`. */
  signal?: AbortSignal | undefined;
  /**
   * The achievements decided, with their instants (docs/rules.md#new-and-retired-achievements);
   * by default those of the version in force, read once for the pass.
   */
  achievements?: readonly TimedAchievement[] | undefined;
}

/** What was (or, in a dry run, would be) repaired of one reader. */
export interface ReaderRepair {
  userId: string;
  daysKept: number;
  daysUnkept: number;
  /** Achievements the reader's timeline earns that the table lacked (put, or in a dry run, to be put). */
  achieved: string[];
  /** When and by which award each of `achieved` was earned. */
  earned: EarnedOnTimeline[];
  /** Set when the reader's achievements wait: their history does not hold every award their profile does (the reason). */
  waiting?: string;
  /** `set`: counts written; `changed`: the profile changed while we read it (run it again); `incomplete`: see ProgressRepair. */
  counts: "set" | "changed" | "incomplete" | "right";
  failed?: string;
}

export interface ProgressReport {
  dryRun: boolean;
  /** Stopped before every reader was repaired (Ctrl-C): a second run finishes. */
  interrupted: boolean;
  counts: boolean;
  readers: ReaderRepair[];
  totals: {
    readers: number;
    daysKept: number;
    daysUnkept: number;
    achieved: number;
    countsSet: number;
    waiting: number;
    failed: number;
  };
}

/**
 * The counts the history shows, set on the profile on the condition that nothing paid or
 * revoked since they were read: `awards` and every count as read. A live award in between
 * fails it (`changed`), and the next run reads again.
 */
async function setCounts(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  counts: Record<string, number>,
  seen: { awards: number; counts: Record<string, number | undefined> },
): Promise<"set" | "changed"> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ":awards": seen.awards };
  const sets: string[] = [];
  const conditions = ["awards = :awards"];
  eventTypes.forEach((type, i) => {
    names[`#c${i}`] = countAttribute(type);
    values[`:c${i}`] = counts[type] ?? 0;
    sets.push(`#c${i} = :c${i}`);
    const was = seen.counts[type];
    if (was === undefined) conditions.push(`attribute_not_exists(#c${i})`);
    else {
      values[`:seen${i}`] = was;
      conditions.push(`#c${i} = :seen${i}`);
    }
  });
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: profileKey(userId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: conditions.join(" AND "),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return "set";
  } catch (error) {
    if (isConditionFailure(error)) return "changed";
    throw error;
  }
}

async function applyRepair(
  dynamo: DynamoDBDocumentClient,
  options: RepairProgressOptions,
  userId: string,
  repair: ProgressRepair,
  seen: Awaited<ReturnType<typeof readerState>>["profile"],
): Promise<ReaderRepair["counts"]> {
  const { tableName } = options;
  const table = { dynamo, tableName };
  await changeKeptDays(table, userId, "ADD", repair.keep);
  // A day a revocation overtook since it was read (the live writer's DELETE came first) goes again.
  await changeKeptDays(table, userId, "DELETE", [
    ...repair.unkeep,
    ...(await overtakenDays(table, repair.keepKeys)),
  ]);
  let counts: ReaderRepair["counts"] = repair.counts === "incomplete" ? "incomplete" : "right";
  if (repair.counts !== undefined && repair.counts !== "incomplete" && seen)
    counts = await setCounts(dynamo, tableName, userId, repair.counts, seen);
  return counts;
}

/** Lists achievements on the progress item, so the writer's gate knows them. */
async function listAchievements(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  userId: string,
  ids: string[],
) {
  if (ids.length === 0) return;
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: progressKey(userId),
      UpdateExpression: "ADD achievements :earned",
      ExpressionAttributeValues: { ":earned": new Set(ids) },
    }),
  );
}

/**
 * Recomputes what the stream derives of readers' progress — kept days and achievements — from
 * the history the table holds, and with `counts`, backfills the counts per type of readers paid
 * before they were counted (docs/operations.md, "Counts, streaks and achievements"). Idempotent:
 * a reader already right is read and left alone; safe beside live traffic (progressRepairOf,
 * setCounts). Never touches XP, `awards`, or an achievement already earned.
 */
export async function repairProgress(
  dynamo: DynamoDBDocumentClient,
  options: RepairProgressOptions,
): Promise<ProgressReport> {
  const readers: ReaderRepair[] = [];
  const { snapshot } = options;
  const achievements =
    options.achievements ?? compileVersion(await currentRulesOrFail(dynamo, options.tableName)).achievements;
  options = { ...options, achievements };
  const pass = readersOf(dynamo, options);
  const interrupted = await forEachReader(pass.ids, options.signal, async (userId) => {
    readers.push(await repairReader(dynamo, options, userId, snapshot?.readers.get(userId)));
    options.onProgress?.(readers.length, pass.total);
  });
  readers.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const sum = (count: (reader: ReaderRepair) => number) => readers.reduce((total, r) => total + count(r), 0);
  return {
    dryRun: options.dryRun,
    interrupted,
    counts: options.counts,
    readers,
    totals: {
      readers: readers.length,
      daysKept: sum((r) => r.daysKept),
      daysUnkept: sum((r) => r.daysUnkept),
      achieved: sum((r) => r.achieved.length),
      countsSet: sum((r) => (r.counts === "set" ? 1 : 0)),
      waiting: sum((r) => (r.waiting ? 1 : 0)),
      failed: sum((r) => (r.failed ? 1 : 0)),
    },
  };
}

/** A reader's state as the table holds it now (read consistently), settled by their guards. */
async function settledState(
  dynamo: DynamoDBDocumentClient,
  options: RepairProgressOptions,
  userId: string,
): Promise<ReaderState> {
  const read = await readerState(dynamo, options.tableName, userId, options.pending?.get(userId));
  // Revocations still on their way to the history count as revoked (their guards say so).
  return {
    ...read,
    history: await settledByGuards({ dynamo, tableName: options.tableName }, read.history),
  };
}

/**
 * Whether the snapshot shows the reader right: no day to keep or un-keep, no achievement to
 * list, no count to set, and nothing their timeline earns that they lack. Only a triage: a
 * reader it shows anything to do for is read again consistently and decided as `--user` decides
 * (the snapshot's guards and profile may be older than the pass by then). An item it cannot
 * read sends the reader there too, to be reported.
 */
function rightInSnapshot(options: RepairProgressOptions, items: ReaderItems): boolean {
  try {
    const read = readerStateOf(items, options.pending?.get(items.userId));
    const guards = new Map(items.guards.map((guard) => [guard.pk, guard as Record<string, unknown>]));
    const state = { ...read, history: settledWith(read.history, guards) };
    const repair = progressRepairOf(state, { counts: options.counts });
    if (repair.keep.length + repair.unkeep.length + repair.list.length > 0 || repair.counts !== undefined)
      return false;
    const due = achievementsOnTimeline(
      historyItemsOf(state.history).map(timelineAwardOf),
      options.achievements,
    );
    return due.every(({ achievement }) => state.achievements.has(achievement));
  } catch {
    return false;
  }
}

/** A reader with nothing changed (and, with `failed`, one whose repair failed). */
const rightReader = (userId: string): ReaderRepair => ({
  userId,
  daysKept: 0,
  daysUnkept: 0,
  achieved: [],
  earned: [],
  counts: "right",
});

async function repairReader(
  dynamo: DynamoDBDocumentClient,
  options: RepairProgressOptions,
  userId: string,
  items: ReaderItems | undefined,
): Promise<ReaderRepair> {
  if (items !== undefined && rightInSnapshot(options, items)) return rightReader(userId);
  try {
    const state = await settledState(dynamo, options, userId);
    const repair = progressRepairOf(state, { counts: options.counts });
    const counts = options.dryRun
      ? repair.counts === undefined
        ? "right"
        : repair.counts === "incomplete"
          ? "incomplete"
          : "set"
      : await applyRepair(dynamo, options, userId, repair, state.profile);
    // The history read above, pending items in it and settled by the guards: not read twice.
    const settled = await settleAchievements({ dynamo, tableName: options.tableName }, userId, {
      earned: state.achievements,
      dryRun: options.dryRun,
      history: historyItemsOf(state.history),
      achievements: options.achievements,
    });
    const due = settled.kind === "settled" ? settled.due : [];
    if (!options.dryRun)
      await listAchievements(dynamo, options.tableName, userId, [
        ...repair.list,
        ...due.map(({ achievement }) => achievement).filter((id) => !state.listed.has(id)),
      ]);
    return {
      userId,
      daysKept: repair.keep.length,
      daysUnkept: repair.unkeep.length,
      achieved: due.map(({ achievement }) => achievement),
      earned: due,
      ...(settled.kind === "behind" ? { waiting: settled.reason } : {}),
      counts,
    };
  } catch (error) {
    return { ...rightReader(userId), failed: describeError(error) };
  }
}
