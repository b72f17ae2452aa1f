import type { Achievements, Board, HistoryAward, HistoryPage, Profile } from "@rewards/reader";

/** Answers as the read API gives them, for the pure tests. */
export function profileOf(overrides: Partial<Profile> = {}): Profile {
  return {
    userId: "ann",
    xp: 170,
    awards: 9,
    counts: { "article.completed": 4, "article.shared": 1, "streak.day": 3, "signup.completed": 1 },
    streak: { current: 3, longest: 5, lastDay: "2026-12-04" },
    level: { level: 2, xpFloor: 100, xpNext: 250 },
    today: { day: "2026-12-04", xp: 50, cap: 50, left: 0 },
    week: { week: "2026-W49", xp: 170, rank: 2 },
    updatedAt: "2026-12-04T10:00:00.000Z",
    ...overrides,
  };
}

export function awardOf(overrides: Partial<HistoryAward> = {}): HistoryAward {
  return {
    id: "grant-1",
    type: "article.completed",
    data: { articleSlug: "how-to-read" },
    xp: 20,
    eventId: "evt-1",
    eventTime: "2026-12-04T09:00:00.000Z",
    earnedOn: "2026-12-04",
    awardedAt: "2026-12-04T09:00:01.000Z",
    ...overrides,
  };
}

export const awardsOf = (...awards: HistoryAward[]): HistoryPage => ({ awards });

export const achievementsOf = (...ids: string[]): Achievements => ({
  achievements: ids.map((id) => ({ id, title: id, earnedAt: "2026-12-04T09:00:01.000Z" })),
});

export const boardOf = (...entries: Board["entries"]): Board => ({ week: "2026-W49", entries });
