import { crossedByType, dayNumberOf, type HistoryItem, userOfKey } from "@rewards/core";

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
  /** The awards (unrevoked, written) that may have crossed an achievement, oldest first; empty for revocations only. */
  awards: Array<{ type: string; grantId: string; awardedAt: string }>;
}

/**
 * Per reader, from the batch's history items in stream order: which kept days to add and
 * remove, and which awards to look for achievements after. A day is kept exactly when its
 * streak.day item stands unrevoked: a written unrevoked image keeps it; a revoked image, or an
 * older image a revocation already overtook (`skipped`), un-keeps it. The last record of a
 * day's award decides. Pure.
 */
export function progressPlan(outcomes: readonly ItemOutcome[]): UserProgress[] {
  const users = new Map<
    string,
    {
      days: Map<number, boolean>;
      keys: Map<number, { pk: string; sk: string }>;
      awards: UserProgress["awards"];
    }
  >();
  for (const { item, outcome } of outcomes) {
    const userId = userOfKey(item.pk) ?? item.pk;
    const user = users.get(userId) ?? {
      days: new Map<number, boolean>(),
      keys: new Map<number, { pk: string; sk: string }>(),
      awards: [] as UserProgress["awards"],
    };
    users.set(userId, user);
    const standing = outcome === "written" && item.revokedAt === undefined;
    if (item.type === "streak.day" && item.data.day !== undefined) {
      user.days.set(dayNumberOf(item.data.day), standing);
      user.keys.set(dayNumberOf(item.data.day), { pk: item.pk, sk: item.sk });
    }
    if (standing) user.awards.push({ type: item.type, grantId: item.id, awardedAt: item.awardedAt });
  }
  return [...users].map(([userId, { days, keys, awards }]) => ({
    userId,
    keep: [...days].filter(([, kept]) => kept).map(([day]) => day),
    keepKeys: [...days].filter(([, kept]) => kept).flatMap(([day]) => keys.get(day) ?? []),
    unkeep: [...days].filter(([, kept]) => !kept).map(([day]) => day),
    awards: awards.sort((a, b) => a.awardedAt.localeCompare(b.awardedAt)),
  }));
}

/** The award an achievement is credited to: the latest of the batch's awards that can cross it. */
export function creditedAward(
  achievement: string,
  awards: UserProgress["awards"],
): UserProgress["awards"][number] | undefined {
  return awards.filter((award) => crossedByType(achievement, award.type)).at(-1);
}
