import {
  achievementsDue,
  countsOfProfile,
  dayNumberOf,
  epochMsOfRfc3339,
  FIXED_ACHIEVEMENTS,
  type HistoryItem,
  keptDayOf,
  longestRun,
  REVOKED_ATTRIBUTE,
  type TimedAchievement,
  userOfKey,
} from "@rewards/core";

/** One history item the batch wrote or found revoked, and what became of it. */
export interface ItemOutcome {
  item: HistoryItem;
  /** `written`: the item is now as the image shows it; `skipped`: a later revocation already marked it. */
  outcome: "written" | "skipped";
}

/** What a batch changes of one reader's progress (docs/reading.md#streaks, #achievements). */
export interface UserProgress {
  userId: string;
  /** Day numbers a paid, unrevoked streak.day award keeps. */
  keep: number[];
  /** The history items that keep them: read again after the ADD, in case a revocation overtook it. */
  keepKeys?: Array<{ pk: string; sk: string }>;
  /** Day numbers whose streak.day award is revoked: no longer kept. */
  unkeep: number[];
  /** Whether the batch holds an award of theirs that stands (written, unrevoked). */
  paid: boolean;
  /** Whether the batch holds a revocation of theirs (a revoked image, or an older one a revocation overtook). */
  revoked: boolean;
  /** The earliest `awardedAt` of the batch's standing awards of theirs: achievements retired after it may still be due. */
  earliestAwardedAt?: string;
  /** The latest: a version published after the writer's last read of the rules may bear on it. */
  latestAwardedAt?: string;
}

/**
 * Per reader, from the batch's history items in stream order: which kept days to add and
 * remove, and whether the batch paid or revoked anything of theirs. A day is kept exactly when
 * its streak.day item stands unrevoked: a written unrevoked image keeps it; a revoked image, or
 * an older image a revocation already overtook (`skipped`), un-keeps it. The last record of a
 * day's award decides. Pure.
 */
export function progressPlan(outcomes: readonly ItemOutcome[]): UserProgress[] {
  const users = new Map<
    string,
    {
      days: Map<number, boolean>;
      keys: Map<number, { pk: string; sk: string }>;
      paid: boolean;
      revoked: boolean;
      earliest?: string;
      latest?: string;
    }
  >();
  for (const { item, outcome } of outcomes) {
    const userId = userOfKey(item.pk) ?? item.pk;
    const user = users.get(userId) ?? {
      days: new Map<number, boolean>(),
      keys: new Map<number, { pk: string; sk: string }>(),
      paid: false,
      revoked: false,
    };
    users.set(userId, user);
    const standing = outcome === "written" && item.revokedAt === undefined;
    const day = keptDayOf(item);
    if (day !== undefined) {
      user.days.set(dayNumberOf(day), standing);
      user.keys.set(dayNumberOf(day), { pk: item.pk, sk: item.sk });
    }
    if (standing) {
      user.paid = true;
      if (user.earliest === undefined || item.awardedAt < user.earliest) user.earliest = item.awardedAt;
      if (user.latest === undefined || item.awardedAt > user.latest) user.latest = item.awardedAt;
    } else user.revoked = true;
  }
  return [...users].map(([userId, { days, keys, paid, revoked, earliest, latest }]) => ({
    userId,
    keep: [...days].filter(([, kept]) => kept).map(([day]) => day),
    keepKeys: [...days].filter(([, kept]) => kept).flatMap(([day]) => keys.get(day) ?? []),
    unkeep: [...days].filter(([, kept]) => !kept).map(([day]) => day),
    paid,
    revoked,
    ...(earliest === undefined ? {} : { earliestAwardedAt: earliest }),
    ...(latest === undefined ? {} : { latestAwardedAt: latest }),
  }));
}

type Item = Readonly<Record<string, unknown>>;

const numberOf = (value: unknown) => (typeof value === "number" ? value : 0);

/**
 * Whether the reader's timeline must be read to decide their achievements after this batch
 * (docs/reading.md#when-exactly), from what the writer already read: their profile and their
 * progress item. Always after a revocation, and for a reader who has ever had one (their counts,
 * XP and days went down at some instant, so the profile now no longer bounds what they reached).
 * Otherwise counts and XP never went down and kept days only grew: what they reached is what the
 * profile and the kept days hold now, and the timeline is read only when that meets an achievement
 * not yet earned — once per achievement in a reader's life, and again while the history is behind.
 * Pure.
 */
export function needsTimeline(
  plan: UserProgress,
  profile: Item | undefined,
  progress: Item | undefined,
  achievements: readonly TimedAchievement[] = FIXED_ACHIEVEMENTS,
): boolean {
  if (plan.revoked || numberOf(profile?.[REVOKED_ATTRIBUTE]) > 0) return true;
  if (!plan.paid) return false;
  const earned =
    progress?.achievements instanceof Set ? (progress.achievements as Set<string>) : new Set<string>();
  const days = progress?.days instanceof Set ? (progress.days as Set<number>) : new Set<number>();
  // One retired after an award of this batch may still be due (its instant is before the retirement).
  const since = plan.earliestAwardedAt === undefined ? undefined : epochMsOfRfc3339(plan.earliestAwardedAt);
  const counted = achievements.flatMap(({ until, ...achievement }) =>
    until === undefined
      ? [achievement]
      : since !== undefined && since < epochMsOfRfc3339(until)
        ? [achievement]
        : [],
  );
  return achievementsDue(
    {
      counts: countsOfProfile(profile ?? {}),
      xp: numberOf(profile?.xp),
      longestRun: longestRun([...days].map(Number)),
    },
    counted,
  ).some((id) => !earned.has(id));
}
