import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  ACHIEVEMENT_SK_PREFIX,
  AWARD_SK_PREFIX,
  achievementId,
  achievementOfKey,
  achievementsDue,
  achievementsOnTimeline,
  countAttribute,
  dayOfNumber,
  eventTypes,
  FIXED_ACHIEVEMENTS,
  historyItemSchema,
  longestRun,
  profileKey,
  progressKey,
  type RewardAchieved,
  type TimedAchievement,
  type TimelineAward,
  timelineAwardOf,
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
  /** The achievement items: id → earnedAt and grantId. */
  achievements: Map<string, { earnedAt: unknown; grantId: unknown }>;
  /** Unrevoked history items by type. */
  history: Record<string, number>;
  /** The reader's timeline: every history item. */
  timeline: TimelineAward[];
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
        achievements: new Map(),
        history: {},
        timeline: [],
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
      else if (sk.startsWith(ACHIEVEMENT_SK_PREFIX))
        reader.achievements.set(achievementOfKey(sk) ?? sk, {
          earnedAt: item.earnedAt,
          grantId: item.grantId,
        });
      else if (sk.startsWith(AWARD_SK_PREFIX)) {
        const parsed = historyItemSchema.safeParse(item);
        if (parsed.success) reader.timeline.push(timelineAwardOf(parsed.data));
        if (item.revokedAt === undefined)
          reader.history[String(item.type)] = (reader.history[String(item.type)] ?? 0) + 1;
      }
    }
  }
  return all;
}

/**
 * Every reader's progress, exactly (docs/reading.md), from one paged scan: the kept days are
 * the days the scenario paid streak.day for; the profile's counts are its history's items by
 * type (unrevoked); the achievements on the table are exactly those the reader's timeline earns
 * (docs/reading.md#when-exactly), each once, at the instant and credited to the award the
 * timeline says; and each was heard on the bus under its one id, and nothing else was. An
 * achievement the reader's state no longer meets (a revocation after it was earned) is counted
 * `sticky`.
 */
export async function checkProgress(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  expectedKeptDays: Readonly<Record<string, readonly string[]>>,
  heard: readonly RewardAchieved[],
  /** The version in force: its types (every count checked) and achievements; by default the built-in ones. */
  rules: { types: readonly string[]; achievements: readonly TimedAchievement[] } = {
    types: eventTypes,
    achievements: FIXED_ACHIEVEMENTS,
  },
): Promise<ProgressCheck> {
  const mismatched: string[] = [];
  const all = await readers(dynamo, tableName);
  let keptDays = 0;
  let achievements = 0;
  let sticky = 0;
  const onTable = new Set<string>();
  for (const userId of new Set([...all.keys(), ...Object.keys(expectedKeptDays)])) {
    const reader: Reader = all.get(userId) ?? {
      days: [],
      achievements: new Map(),
      history: {},
      timeline: [],
    };
    const days = reader.days.map(dayOfNumber);
    keptDays += days.length;
    achievements += reader.achievements.size;
    const expected = expectedKeptDays[userId] ?? [];
    if (!same(days, expected))
      mismatched.push(`${userId}: kept days ${days.join(",")}, sent ${expected.join(",")}`);
    const counts = Object.fromEntries(
      rules.types.map((type) => {
        const count = reader.profile?.[countAttribute(type)];
        return [type, typeof count === "number" ? count : 0];
      }),
    );
    for (const type of rules.types)
      if (counts[type] !== (reader.history[type] ?? 0))
        mismatched.push(`${userId}: ${type} counted ${counts[type]}, history ${reader.history[type] ?? 0}`);
    const xp = typeof reader.profile?.xp === "number" ? reader.profile.xp : 0;
    const now = new Set(
      achievementsDue({ counts, xp, longestRun: longestRun(reader.days) }, rules.achievements),
    );
    const earned = achievementsOnTimeline(reader.timeline, rules.achievements);
    const held = [...reader.achievements.keys()].sort();
    const wrong = earned.filter(({ achievement, earnedAt, grantId }) => {
      const item = reader.achievements.get(achievement);
      return item?.earnedAt !== earnedAt || item?.grantId !== grantId;
    });
    if (wrong.length > 0 || held.length !== earned.length)
      mismatched.push(
        `${userId}: achievements ${held.join(",")}, the timeline earns ${earned
          .map(({ achievement, earnedAt, grantId }) => `${achievement}@${earnedAt}/${grantId ?? "-"}`)
          .join(
            ",",
          )}${wrong.length > 0 ? ` (held otherwise: ${wrong.map(({ achievement }) => achievement).join(",")})` : ""}`,
      );
    else sticky += held.filter((achievement) => !now.has(achievement)).length;
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
