import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  AWARD_SK_PREFIX,
  achievementId,
  achievementOfKey,
  achievementsDue,
  countAttribute,
  dayNumberOf,
  dayOfNumber,
  eventTypes,
  longestRun,
  profileKey,
  progressKey,
  type RewardAchieved,
  userOfKey,
} from "@rewards/core";
import { scanTable } from "@rewards/ops";

export interface ProgressCheck {
  readers: number;
  /** Kept days on the table, over every reader. */
  keptDays: number;
  /** Achievement items on the table, over every reader. */
  achievements: number;
  /**
   * Of those, held though the reader's state no longer earns them: earned before a revocation
   * took back what crossed them, and kept (sticky, docs/reading.md#achievements). 0 without revocations.
   */
  sticky: number;
  /** Distinct reward.achieved ids heard on the bus, and copies of them. */
  announced: number;
  copies: number;
  /** What is not exactly as it must be, one line each (`user: what`). */
  mismatched: string[];
}

interface Reader {
  profile?: Record<string, unknown>;
  days: number[];
  achievements: string[];
  /** Unrevoked history items by type. */
  history: Record<string, number>;
  /** Revoked history items: their count by type, their XP and their streak days (the state before the revocations). */
  revoked: { counts: Record<string, number>; xp: number; days: number[] };
}

const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);

/** Every reader's profile, progress, achievements and history, from one paged scan of the table. */
async function readers(dynamo: DynamoDBDocumentClient, tableName: string): Promise<Map<string, Reader>> {
  const all = new Map<string, Reader>();
  const readerOf = (userId: string) => {
    let reader = all.get(userId);
    if (!reader) {
      reader = {
        days: [],
        achievements: [],
        history: Object.fromEntries(eventTypes.map((t) => [t, 0])),
        revoked: { counts: {}, xp: 0, days: [] },
      };
      all.set(userId, reader);
    }
    return reader;
  };
  const PROFILE = profileKey("").sk;
  const PROGRESS = progressKey("").sk;
  for await (const page of scanTable(dynamo, { TableName: tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) {
      const userId = userOfKey(item.pk);
      if (userId === undefined) continue;
      const sk = String(item.sk);
      const reader = readerOf(userId);
      if (sk === PROFILE) reader.profile = item;
      else if (sk === PROGRESS)
        reader.days = item.days instanceof Set ? [...item.days].map(Number).sort((a, b) => a - b) : [];
      else if (sk.startsWith(ACHIEVEMENT_SK_PREFIX)) reader.achievements.push(achievementOfKey(sk) ?? sk);
      else if (sk.startsWith(AWARD_SK_PREFIX) && item.revokedAt === undefined)
        reader.history[String(item.type)] = (reader.history[String(item.type)] ?? 0) + 1;
      else if (sk.startsWith(AWARD_SK_PREFIX)) {
        const { revoked } = reader;
        revoked.counts[String(item.type)] = (revoked.counts[String(item.type)] ?? 0) + 1;
        revoked.xp += typeof item.xp === "number" ? item.xp : 0;
        const day = (item.data as Record<string, unknown> | undefined)?.day;
        if (item.type === "streak.day" && typeof day === "string") revoked.days.push(dayNumberOf(day));
      }
    }
  }
  return all;
}

/**
 * Every reader's progress, exactly (docs/reading.md), from one paged scan: the kept days are
 * the days the scenario paid streak.day for; the profile's counts are its history's items by
 * type (unrevoked); the achievements on the table are exactly those the reader's state earns,
 * each once; and each was heard on the bus under its one id, and nothing else was. A revoked
 * award may leave an achievement it crossed held (sticky, docs/reading.md#achievements): one
 * the state no longer earns is right only if the state before the revocations (the revoked
 * history items given back) earns it. Without revocations, exactly those earned.
 */
export async function checkProgress(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  expectedKeptDays: Readonly<Record<string, readonly string[]>>,
  heard: readonly RewardAchieved[],
): Promise<ProgressCheck> {
  const mismatched: string[] = [];
  const all = await readers(dynamo, tableName);
  let keptDays = 0;
  let achievements = 0;
  let sticky = 0;
  const onTable = new Set<string>();
  for (const userId of new Set([...all.keys(), ...Object.keys(expectedKeptDays)])) {
    const reader = all.get(userId) ?? {
      days: [],
      achievements: [],
      history: {},
      revoked: { counts: {}, xp: 0, days: [] },
    };
    const days = reader.days.map(dayOfNumber);
    keptDays += days.length;
    achievements += reader.achievements.length;
    const expected = expectedKeptDays[userId] ?? [];
    if (!same(days, expected))
      mismatched.push(`${userId}: kept days ${days.join(",")}, sent ${expected.join(",")}`);
    const counts = Object.fromEntries(
      eventTypes.map((type) => {
        const count = reader.profile?.[countAttribute(type)];
        return [type, typeof count === "number" ? count : 0];
      }),
    );
    for (const type of eventTypes)
      if (counts[type] !== (reader.history[type] ?? 0))
        mismatched.push(`${userId}: ${type} counted ${counts[type]}, history ${reader.history[type] ?? 0}`);
    const xp = typeof reader.profile?.xp === "number" ? reader.profile.xp : 0;
    const due = achievementsDue({ counts, xp, longestRun: longestRun(reader.days) }).sort();
    const held = [...reader.achievements].sort();
    // Before the revocations: the most the reader's state ever earned.
    const { revoked } = reader;
    const before = new Set(
      achievementsDue({
        counts: Object.fromEntries(
          eventTypes.map((type) => [type, (counts[type] ?? 0) + (revoked.counts[type] ?? 0)]),
        ),
        xp: xp + revoked.xp,
        longestRun: longestRun(new Set([...reader.days, ...revoked.days])),
      }),
    );
    const kept = held.filter((achievement) => !due.includes(achievement));
    if (due.some((achievement) => !held.includes(achievement)) || kept.some((a) => !before.has(a)))
      mismatched.push(
        `${userId}: achievements ${held.join(",")}, earned ${due.join(",")}${kept.length > 0 ? ` (before revocations ${[...before].sort().join(",")})` : ""}`,
      );
    else sticky += kept.length;
    for (const achievement of held) onTable.add(achievementId(userId, achievement));
  }
  const ids = new Set(heard.map((event) => event.id));
  for (const event of heard)
    if (event.id !== achievementId(event.data.userId, event.data.achievement))
      mismatched.push(
        `${event.data.userId}: reward.achieved ${event.id} is not ${event.data.achievement}'s id`,
      );
  for (const id of onTable) if (!ids.has(id)) mismatched.push(`achievement ${id} never announced`);
  for (const id of ids) if (!onTable.has(id)) mismatched.push(`reward.achieved ${id} names no achievement`);
  return {
    readers: all.size,
    keptDays,
    achievements,
    sticky,
    announced: ids.size,
    copies: heard.length,
    mismatched,
  };
}
