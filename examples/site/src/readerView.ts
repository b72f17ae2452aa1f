import type { Achievements, Board, HistoryAward, HistoryPage, Profile } from "@rewards/reader";
import { type AchievementTile, achievementTiles } from "./achievementGuide";
import { inReadingOrder } from "./awardOrder";
import { type CampaignBanner, campaignBanner, runningCampaigns, type SiteRules } from "./campaigns";
import { type StreakStory, streakStory } from "./streakStory";
import { dayIn } from "./zoneDays";

/** What the reader's page shows, read off the API's four answers. Pure: the page only lays it out. */
export interface ReaderView {
  userId: string;
  /** The zone the streak is read in (the API's, asked with ?timeZone=; UTC by default): canonical. */
  timeZone: string;
  /** Whether the zone was asked for (the form keeps it), or UTC by default. */
  timeZoneAsked: boolean;
  xp: number;
  level: {
    level: number;
    xpFloor: number;
    xpNext: number;
    /** XP earned within this level, and the XP the level spans: the bar's value and maximum. */
    intoLevel: number;
    levelSpan: number;
    /** intoLevel of levelSpan, in percent (0–100, to a hundredth): the ring's arc. */
    percent: number;
  };
  /** Today's XP against the daily cap: the cap counts UTC days, whatever the zone. */
  today: Profile["today"];
  /** The profile's streak, today in the zone, and where the streak stands then. */
  streak: Profile["streak"] & { today: string } & StreakStory;
  achievements: AchievementTile[];
  awards: AwardLine[];
  board: BoardView;
  /** A banner per campaign running now (none without the rules). */
  campaigns: CampaignBanner[];
}

export interface AwardLine {
  id: string;
  /** What the award was for, in words. */
  forWhat: string;
  earnedOn: string;
  xp: number;
  /** The rule's XP when the daily cap paid less. */
  requestedXp?: number;
  /**
   * Revoked by an operator. The API's revokedReason is the operator's note (docs/reading.md#a-readers-page):
   * the page says only that it was revoked.
   */
  revoked: boolean;
}

export interface BoardView {
  week: string;
  entries: { rank: number; userId: string; xp: number; isReader: boolean }[];
  /** The reader's own week, from their profile: rank absent with no XP this week or past the top 1,000. */
  reader: Profile["week"];
}

/** What an award was for: the event type's words and the data that names it. */
export function awardFor(award: Pick<HistoryAward, "type" | "data">): string {
  const text = (name: string) => {
    const value = award.data[name];
    return typeof value === "string" ? value : "";
  };
  switch (award.type) {
    case "article.completed":
      return `Finished “${text("articleSlug")}”`;
    case "article.shared":
      return `Shared “${text("articleSlug")}” on ${text("channel")}`;
    case "streak.day":
      return `Read on ${text("day")}`;
    case "signup.completed":
      return "Signed up";
    default:
      // A type added after this page: named as the API names it.
      return award.type;
  }
}

/** The level and how far the reader is into it: the ring from the level's floor to the next one's. */
function levelOf({ xp, level }: Profile): ReaderView["level"] {
  const intoLevel = xp - level.xpFloor;
  const levelSpan = level.xpNext - level.xpFloor;
  const percent = Math.round(Math.min(1, Math.max(0, intoLevel / levelSpan)) * 10_000) / 100;
  return { ...level, intoLevel, levelSpan, percent };
}

export interface ViewContext {
  /** The zone the profile was asked in (canonical), and whether it was asked for. */
  timeZone: string;
  timeZoneAsked: boolean;
  /** When the page began: its today in the zone is read at this instant, before the API's. */
  now: Date;
}

/** Awards that say the reader read on a day: not a signup, not a streak day (that is the day kept). */
const isReading = (award: HistoryAward) =>
  award.revokedAt === undefined && award.type !== "signup.completed" && award.type !== "streak.day";

export function readerView(
  answers: {
    profile: Profile;
    awards: HistoryPage;
    achievements: Achievements;
    board: Board;
    /** `GET /rules`, when the API has it and answered in time. */
    rules?: SiteRules;
  },
  context: ViewContext,
): ReaderView {
  const { profile, awards, achievements, board, rules } = answers;
  const { timeZone, timeZoneAsked, now } = context;
  const today = dayIn(now, timeZone);
  const readToday = awards.awards.some(
    (award) => isReading(award) && dayIn(award.eventTime, timeZone) === today,
  );
  return {
    userId: profile.userId,
    timeZone,
    timeZoneAsked,
    xp: profile.xp,
    level: levelOf(profile),
    today: profile.today,
    streak: {
      ...profile.streak,
      today,
      ...streakStory({ streak: profile.streak, today, timeZone, readToday }),
    },
    achievements: achievementTiles(achievements.achievements, profile.level.level, profile.level.xpNext),
    awards: inReadingOrder(awards.awards).map((award) => ({
      id: award.id,
      forWhat: awardFor(award),
      earnedOn: award.earnedOn,
      xp: award.xp,
      ...(award.requestedXp === undefined ? {} : { requestedXp: award.requestedXp }),
      revoked: award.revokedAt !== undefined,
    })),
    board: {
      week: board.week,
      entries: board.entries.map((entry) => ({ ...entry, isReader: entry.userId === profile.userId })),
      reader: profile.week,
    },
    campaigns: runningCampaigns(rules?.campaigns ?? [], now).map((campaign) =>
      campaignBanner(campaign, now, timeZone),
    ),
  };
}
