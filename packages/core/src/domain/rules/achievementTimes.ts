import { z } from "zod";
import type { TimedAchievement } from "../progress/achievements";
import type { RulesDocument } from "./rulesDocument";

/**
 * When a version's achievement began and stopped counting (docs/rules.md#new-and-retired-achievements):
 * `since`, the `publishedAt` of the version that added it (absent for the built-in ones, which
 * always counted); `retiredAt`, that of the version that retired it. Written on each `V#` item at
 * publish, carried forward from the version before, so a function reads one item, never the
 * whole list of versions.
 */
export const achievementTimesSchema = z.record(
  z.string(),
  z.object({ since: z.iso.datetime().optional(), retiredAt: z.iso.datetime().optional() }).strict(),
);
export type AchievementTimes = z.infer<typeof achievementTimesSchema>;

/** What a version says of its achievements, for the two functions below. */
interface VersionAchievements {
  document: RulesDocument;
  achievementTimes?: AchievementTimes | undefined;
}

/**
 * The achievement times of `document` published at `publishedAt` after `previous`: an
 * achievement new to it counts from `publishedAt`; one retired by it stops then; the rest keep
 * what `previous` said. Pure.
 */
export function achievementTimesAfter(
  previous: VersionAchievements,
  document: RulesDocument,
  publishedAt: string,
): AchievementTimes {
  const before = new Map(previous.document.achievements.map((achievement) => [achievement.id, achievement]));
  const times: AchievementTimes = {};
  for (const achievement of document.achievements) {
    const was = before.get(achievement.id);
    const kept = previous.achievementTimes?.[achievement.id] ?? {};
    const since = was === undefined ? publishedAt : kept.since;
    const retiredAt = !achievement.retired ? undefined : was?.retired ? kept.retiredAt : publishedAt;
    if (since !== undefined || retiredAt !== undefined)
      times[achievement.id] = {
        ...(since === undefined ? {} : { since }),
        ...(retiredAt === undefined ? {} : { retiredAt }),
      };
  }
  return times;
}

/** Never: a retired achievement whose retirement no version recorded counts at no instant. */
const NEVER = "1970-01-01T00:00:00.000Z";

/** A version's achievements as the timeline earns them (achievementsOnTimeline), with their instants. Pure. */
export function timedAchievementsOf(version: VersionAchievements): TimedAchievement[] {
  return version.document.achievements.map((achievement) => {
    const times = version.achievementTimes?.[achievement.id] ?? {};
    const until = times.retiredAt ?? (achievement.retired ? NEVER : undefined);
    return {
      id: achievement.id,
      title: achievement.title,
      ...(achievement.description === undefined ? {} : { description: achievement.description }),
      when: achievement.when,
      ...(times.since === undefined ? {} : { since: times.since }),
      ...(until === undefined ? {} : { until }),
    };
  });
}
