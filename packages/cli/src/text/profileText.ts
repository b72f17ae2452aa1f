import type { Achievement, HistoryAward, HistoryPage, Profile } from "@rewards/reader";
import { pairsText, tableText } from "../runtime/text";

/** `2026-12-01: 30 of 50 XP (daily cap), 20 left`, or the day's XP alone when no cap is set here. */
export function todayLine(today: Profile["today"]): string {
  return today.cap === undefined
    ? `${today.day}: ${today.xp} XP (no daily cap set)`
    : `${today.day}: ${today.xp} of ${today.cap} XP (daily cap), ${today.left ?? 0} left`;
}

/** `2026-W49: 30 XP, rank #2`; `no rank` with no XP this week (or past the board's first 1,000). */
export function weekLine(week: Profile["week"]): string {
  return `${week.week}: ${week.xp} XP, ${week.rank === undefined ? "no rank" : `rank #${week.rank}`}`;
}

/** `2 (from 100 XP; level 3 at 250 XP)`. */
export function levelLine(level: Profile["level"]): string {
  return `${level.level} (from ${level.xpFloor} XP; level ${level.level + 1} at ${level.xpNext} XP)`;
}

/** `current 5 (in Europe/Paris), longest 7, last day 2026-12-03`; `none kept` before the first kept day. */
export function streakLine(streak: Profile["streak"], timeZone: string): string {
  if (streak.lastDay === undefined) return "none kept";
  return `current ${streak.current} (in ${timeZone}), longest ${streak.longest}, last day ${streak.lastDay}`;
}

/** `article.completed 12, article.shared 3, streak.day 7, signup.completed 1`. */
export function countsLine(counts: Profile["counts"]): string {
  return Object.entries(counts)
    .map(([type, count]) => `${type} ${count}`)
    .join(", ");
}

/** The streak and the counts, then the achievements' table (newest first), as `rewards user` prints them. */
function progressText(profile: Profile, achievements: readonly Achievement[], timeZone: string): string {
  const pairs = pairsText({
    streak: streakLine(profile.streak, timeZone),
    counts: countsLine(profile.counts),
  });
  if (achievements.length === 0) return `${pairs}no achievements yet\n`;
  const rows = achievements.map(({ id, title, earnedAt }) => ({ id, title, earnedAt }));
  return `${pairs}${achievements.length} achievement${achievements.length === 1 ? "" : "s"}, newest first:\n${tableText(rows, ["id", "title", "earnedAt"])}`;
}

/** What an award was for, from its data: `idempotent-writes`, `idempotent-writes (email)`, `2026-12-01`. */
function subjectOf(award: HistoryAward): string {
  const { articleSlug, channel, day } = award.data;
  if (typeof articleSlug === "string")
    return typeof channel === "string" ? `${articleSlug} (${channel})` : articleSlug;
  if (typeof day === "string") return day;
  const rest = Object.keys(award.data);
  return rest.length === 0 ? "" : JSON.stringify(award.data);
}

/** `20`, `10 of 20` (the cap paid less), `20, revoked`. */
function paidOf(award: HistoryAward): string {
  const paid = award.requestedXp === undefined ? String(award.xp) : `${award.xp} of ${award.requestedXp}`;
  return award.revokedAt === undefined ? paid : `${paid}, revoked`;
}

/**
 * The profile's pairs (with `historyLag`, the line saying the history is behind the profile),
 * then the streak, the counts and the achievements, then the awards' table (newest first), as
 * `rewards user` prints them.
 */
export function profileText(
  profile: Profile,
  page: HistoryPage | undefined,
  achievements: readonly Achievement[],
  timeZone: string,
  historyLag?: string,
): string {
  const head = `${pairsText({
    userId: profile.userId,
    xp: profile.xp,
    awards: profile.awards,
    // Only when the history's writer is behind this reader: why "awards 5" sits beside "no awards yet".
    ...(historyLag === undefined ? {} : { history: historyLag }),
    level: levelLine(profile.level),
    today: todayLine(profile.today),
    week: weekLine(profile.week),
    updatedAt: profile.updatedAt ?? "never awarded",
  })}
${progressText(profile, achievements, timeZone)}`;
  if (page === undefined) return head;
  if (page.awards.length === 0) return `${head}\nno awards yet\n`;
  const rows = page.awards.map((award) => ({
    awardedAt: award.awardedAt,
    type: award.type,
    for: subjectOf(award),
    xp: paidOf(award),
    earnedOn: award.earnedOn,
    ...(award.revokedAt === undefined
      ? {}
      : { revoked: `${award.revokedAt} ${award.revokedReason ?? ""}`.trim() }),
  }));
  const columns = [
    "awardedAt",
    "type",
    "for",
    "xp",
    "earnedOn",
    ...(rows.some((r) => "revoked" in r) ? ["revoked"] : []),
  ];
  const more = page.cursor === undefined ? "" : "(older awards: --awards N shows more, up to 100)\n";
  return `${head}\nlast ${page.awards.length} award${page.awards.length === 1 ? "" : "s"}, newest first:\n${tableText(rows, columns)}${more}`;
}
