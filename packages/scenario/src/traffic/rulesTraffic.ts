import {
  BUILTIN_RULES,
  campaignPay,
  checkRules,
  describeRulesProblems,
  intentKey,
  type RulesDocument,
  seededRandom,
} from "@rewards/core";
import type { TrafficMessage } from "./generateTraffic";

/** The site's own type the demo publishes: 1 XP a minute listened, at most 60, once per episode. */
export const DEMO_TYPE = "podcast.listened";
/** Its campaign: double XP for podcasts listened (event time) from shortly after the publish. */
export const DEMO_CAMPAIGN = "double-podcasts";
/** Its achievement: three podcasts. */
export const DEMO_ACHIEVEMENT = "podcasts-3";
/** How long after the publish the campaign opens: events before it pay the base, after it double. */
export const CAMPAIGN_OPENS_AFTER_MS = 2000;

/**
 * The rules `rewards demo` publishes as version 1 (docs/rules.md): the built-in ones, plus a
 * per-unit type that does not count toward the daily cap (so its expectations need no cap), a
 * campaign opening `CAMPAIGN_OPENS_AFTER_MS` after `publishAt` for an hour, and an achievement.
 */
export function demoRules(publishAt: number, base: unknown = BUILTIN_RULES): RulesDocument {
  const document = structuredClone(base) as unknown as {
    types: Record<string, unknown>;
    campaigns: unknown[];
    achievements: unknown[];
  };
  document.types[DEMO_TYPE] = {
    data: {
      episode: { type: "string", maxLength: 64 },
      minutes: { type: "integer", minimum: 0, maximum: 600 },
    },
    key: ["episode"],
    xp: { per: "minutes", each: 1, max: 60 },
    memory: 30,
    capped: false,
  };
  document.campaigns.push({
    id: DEMO_CAMPAIGN,
    title: "Double XP on podcasts",
    types: [DEMO_TYPE],
    from: new Date(publishAt + CAMPAIGN_OPENS_AFTER_MS).toISOString(),
    to: new Date(publishAt + CAMPAIGN_OPENS_AFTER_MS + 3_600_000).toISOString(),
    multiplier: 2,
  });
  document.achievements.push({
    id: DEMO_ACHIEVEMENT,
    title: "Three podcasts",
    when: { count: DEMO_TYPE, reaches: 3 },
  });
  const checked = checkRules(document);
  if (!checked.ok)
    throw new Error(`the demo's rules fail their checks: ${describeRulesProblems(checked.problems)}`);
  return checked.document;
}

/**
 * What the demo publishes over the version in force (`current`): nothing when it already holds
 * the demo's rules (a run before it on this table: their campaign has begun and is frozen), else
 * the demo's additions on top of it (a stage's own rules stay). Pure.
 */
export function demoRulesPlan(
  current: { document: RulesDocument },
  now: number,
): { document: RulesDocument; publishAt: number; publish: boolean } {
  const campaign = current.document.campaigns.find((each) => each.id === DEMO_CAMPAIGN);
  if (current.document.types[DEMO_TYPE] !== undefined && campaign !== undefined)
    return {
      document: current.document,
      publishAt: Date.parse(campaign.from) - CAMPAIGN_OPENS_AFTER_MS,
      publish: false,
    };
  return { document: demoRules(now, current.document), publishAt: now, publish: true };
}

/** One podcast intent the demo pays, as the rules say it must be paid. */
export interface ExpectedPodcast {
  intentKey: string;
  userId: string;
  units: number;
  xp: number;
  campaign?: string;
}

export interface RulesTraffic {
  messages: TrafficMessage[];
  /** Each podcast listener's XP, from the document: its rule's pay, doubled by the campaign on event time. */
  expectedXp: Record<string, number>;
  intents: ExpectedPodcast[];
  /** Copies of paid intents: duplicates, never paid again. */
  copies: number;
  /** Listeners who must hold the achievement (three podcasts or more). */
  achievers: string[];
}

/**
 * Podcasts for `listeners` readers of their own, reproducible for a seed, some listened before the
 * campaign opens and some after (event time, `campaignFrom` ± a few seconds), each copied now and
 * then with other minutes; the expectations come from `document` alone. Pure.
 */
export function generateRulesTraffic(options: {
  document: RulesDocument;
  seed: number;
  listeners: number;
  campaignFrom: number;
}): RulesTraffic {
  const random = seededRandom(options.seed + 7);
  const messages: TrafficMessage[] = [];
  const intents: ExpectedPodcast[] = [];
  const expectedXp: Record<string, number> = {};
  const achievers: string[] = [];
  let copies = 0;
  let sequence = 0;
  const rule = options.document.types[DEMO_TYPE];
  if (rule === undefined || typeof rule.xp === "number")
    throw new Error(`the demo's rules have no per-unit ${DEMO_TYPE}`);
  const { each, max } = rule.xp;
  for (let listener = 0; listener < options.listeners; listener++) {
    const userId = `load-${options.seed}-listener-${String(listener).padStart(2, "0")}`;
    const episodes = 1 + (listener % 5);
    if (episodes >= 3) achievers.push(userId);
    for (let episode = 0; episode < episodes; episode++) {
      const minutes = Math.floor(random() * 90);
      // Half before the campaign opens, half after: what decides is when they listened.
      const at = options.campaignFrom + (episode % 2 === 0 ? -1000 - episode * 10 : 10 + episode * 10);
      const data = { userId, episode: `ep-${listener}-${episode}`, minutes };
      const base = Math.min(max, each * minutes);
      const pay = campaignPay(options.document.campaigns, DEMO_TYPE, at, base);
      const key = intentKey([userId, data.episode, DEMO_TYPE]);
      intents.push({
        intentKey: key,
        userId,
        units: minutes,
        xp: pay.xp,
        ...(pay.campaign === undefined ? {} : { campaign: pay.campaign }),
      });
      expectedXp[userId] = (expectedXp[userId] ?? 0) + pay.xp;
      const body = (units: number) =>
        JSON.stringify({
          specversion: "1.0",
          id: `evt-podcast-${options.seed}-${sequence++}`,
          source: "/rewards/demo",
          type: DEMO_TYPE,
          time: new Date(at).toISOString(),
          datacontenttype: "application/json",
          data: { ...data, minutes: units },
        });
      messages.push({ kind: "unique", type: DEMO_TYPE, body: body(minutes) });
      // A copy (a new emission of the same listen): a duplicate, paid once. Copies with other
      // minutes are tests/rulesWorker.test.ts's: here two pollers may commit either first.
      if (random() < 0.3) {
        messages.push({ kind: "duplicate", type: DEMO_TYPE, body: body(minutes) });
        copies++;
      }
    }
  }
  return { messages, expectedXp, intents, copies, achievers };
}
