import { setTimeout as sleep } from "node:timers/promises";
import { BatchGetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { FIXED_ACHIEVEMENTS, profileKey, progressKey, type TimedAchievement, userOfKey } from "@rewards/core";
import {
  type AwsCall,
  callField,
  changeKeptDays,
  describeError,
  overtakenDays,
  settleAchievements,
} from "@rewards/core/aws";
import type pLimit from "p-limit";
import type { HistoryDeps } from "./historyDeps";
import { needsTimeline, type UserProgress } from "./progressPlan";
import { unreadableReader } from "./readerItems";

type Item = Record<string, unknown>;

/** Why a reader's progress or week failed; the SDK call that failed, as fields, when one did. */
export interface ReaderFailure {
  reason: string;
  call?: AwsCall;
}

/** What writing a batch's progress did. */
export interface ProgressWritten {
  /** Achievement items put (a race lost to another writer is not counted). */
  achieved: number;
  /** Readers whose achievements wait for their history to hold every award (settleAchievements). */
  deferred: number;
  /** Readers whose progress failed, with why: their records are retried. */
  failed: Map<string, ReaderFailure>;
}

const setOf = <T>(value: unknown): Set<T> => (value instanceof Set ? (value as Set<T>) : new Set<T>());
/** BatchGetItem's most keys a call: two items a reader, so fifty readers. */
const KEYS_PER_READ = 100;
/** Keys DynamoDB leaves unprocessed (throttling) are asked again this many times, then the readers fail. */
const READ_ATTEMPTS = 4;

/**
 * The profile and the progress item of every reader in `userIds`, read consistently, fifty
 * readers a call: one call for a whole batch of a few dozen records. A reader whose keys stay
 * unprocessed is absent from the answer (their records are retried).
 */
async function readersState(deps: HistoryDeps, userIds: readonly string[]): Promise<Map<string, Item[]>> {
  const found = new Map<string, Item[]>(userIds.map((id) => [id, []]));
  const keys = userIds.flatMap((id) => [profileKey(id), progressKey(id)]);
  const left = new Set<string>();
  for (let start = 0; start < keys.length; start += KEYS_PER_READ) {
    let asking: Item[] = keys.slice(start, start + KEYS_PER_READ);
    for (let attempt = 1; asking.length > 0; attempt++) {
      const answer = await deps.dynamo.send(
        new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: asking, ConsistentRead: true } } }),
      );
      for (const item of answer.Responses?.[deps.tableName] ?? [])
        found.get(userOfKey(item.pk) ?? "")?.push(item);
      asking = answer.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
      if (attempt === READ_ATTEMPTS) {
        for (const key of asking) left.add(userOfKey(key.pk) ?? "");
        break;
      }
      if (asking.length > 0) await sleep(25 * 2 ** attempt);
    }
  }
  for (const userId of left) found.delete(userId);
  return found;
}

/**
 * One reader's achievements decided on their timeline (settleAchievements), each one due put
 * once, then every one due listed on the progress item (so the next batch's gate knows it).
 * A history still behind the profile decides nothing now: the record it lacks brings the reader
 * back (`deferred`).
 */
async function achieve(
  deps: HistoryDeps,
  userId: string,
  stored: Item | undefined,
  profile: Item | undefined,
  achievements: readonly TimedAchievement[],
) {
  const earned = setOf<string>(stored?.achievements);
  const settled = await settleAchievements(deps, userId, { earned, seen: profile, achievements });
  if (settled.kind === "behind") {
    deps.logger.debug({ userId, reason: settled.reason }, "achievements wait for the history");
    return { achieved: 0, deferred: 1 };
  }
  if (settled.due.length > 0)
    await deps.dynamo.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: progressKey(userId),
        UpdateExpression: "ADD achievements :earned",
        ExpressionAttributeValues: { ":earned": new Set(settled.due.map(({ achievement }) => achievement)) },
      }),
    );
  return { achieved: settled.put.length, deferred: 0 };
}

/**
 * The readers' progress after a batch (docs/reading.md#streaks, #achievements): each reader's
 * kept days changed (set operations: copies and replays change nothing); then the profiles and
 * progress items of the batch's readers in one read for the whole batch, and for each reader
 * whose achievements may have moved (needsTimeline), their timeline decides them
 * (settleAchievements: put once, `attribute_not_exists`, so a racing decider's item stands, and
 * ours costs one write unit only then). An award that crosses nothing costs its share of that
 * one read.
 */
export async function writeProgress(
  deps: HistoryDeps,
  plans: readonly UserProgress[],
  limit: ReturnType<typeof pLimit>,
): Promise<ProgressWritten> {
  const failed = new Map<string, ReaderFailure>();
  await Promise.all(
    plans.map((plan) =>
      limit(async () => {
        try {
          if (plan.keep.length > 0) await changeKeptDays(deps, plan.userId, "ADD", plan.keep);
          const overtaken = plan.keep.length > 0 ? await overtakenDays(deps, plan.keepKeys ?? []) : [];
          const unkeep = [...plan.unkeep, ...overtaken];
          if (unkeep.length > 0) await changeKeptDays(deps, plan.userId, "DELETE", unkeep);
        } catch (error) {
          failed.set(plan.userId, { reason: `kept days: ${describeError(error)}`, ...callField(error) });
        }
      }),
    ),
  );
  const readers = plans.filter((plan) => (plan.paid || plan.revoked) && !failed.has(plan.userId));
  let states: Map<string, Item[]>;
  let achievements: readonly TimedAchievement[];
  try {
    // The batch's version of the rules: its achievements and the instants they count between.
    achievements =
      readers.length === 0 || deps.rules === undefined
        ? FIXED_ACHIEVEMENTS
        : (await deps.rules.forBatch()).compiled.achievements;
  } catch (error) {
    for (const plan of readers)
      failed.set(plan.userId, { reason: `rules: ${describeError(error)}`, ...callField(error) });
    return { achieved: 0, deferred: 0, failed };
  }
  try {
    states = await readersState(
      deps,
      readers.map((plan) => plan.userId),
    );
  } catch (error) {
    for (const plan of readers)
      failed.set(plan.userId, { reason: `progress read: ${describeError(error)}`, ...callField(error) });
    return { achieved: 0, deferred: 0, failed };
  }
  let achieved = 0;
  let deferred = 0;
  // The readers whose timeline decides: read, readable, and meeting something not yet earned.
  const deciding: Array<{ plan: UserProgress; profile: Item | undefined; stored: Item | undefined }> = [];
  for (const plan of readers) {
    const items = states.get(plan.userId);
    if (!items) {
      failed.set(plan.userId, { reason: "progress read: throttled (keys left unprocessed)" });
      continue;
    }
    const profile = items.find((item) => item.sk === profileKey(plan.userId).sk);
    // Read after this batch's kept days were changed: the gate sees them.
    const stored = items.find((item) => item.sk === progressKey(plan.userId).sk);
    // A reader it cannot read is failed, not passed over: retried, then given up and listed.
    const unreadable = unreadableReader(profile, stored);
    if (unreadable !== undefined) failed.set(plan.userId, { reason: unreadable });
    else if (needsTimeline(plan, profile, stored, achievements)) deciding.push({ plan, profile, stored });
  }
  // An award committed after the rules were last read may fall after a version this writer does
  // not know yet (an achievement retired, one added): read them again before deciding, once.
  const readAt = deps.rules?.lastReadAt() ?? Number.POSITIVE_INFINITY;
  if (
    deps.rules !== undefined &&
    deciding.some(
      ({ plan }) => plan.latestAwardedAt !== undefined && Date.parse(plan.latestAwardedAt) >= readAt,
    )
  ) {
    try {
      achievements = (await deps.rules.reread()).compiled.achievements;
    } catch (error) {
      for (const { plan } of deciding)
        failed.set(plan.userId, { reason: `rules: ${describeError(error)}`, ...callField(error) });
      return { achieved: 0, deferred: 0, failed };
    }
  }
  await Promise.all(
    deciding.map(({ plan, profile, stored }) =>
      limit(async () => {
        try {
          const done = await achieve(deps, plan.userId, stored, profile, achievements);
          achieved += done.achieved;
          deferred += done.deferred;
        } catch (error) {
          failed.set(plan.userId, { reason: `achievements: ${describeError(error)}`, ...callField(error) });
        }
      }),
    ),
  );
  return { achieved, deferred, failed };
}
