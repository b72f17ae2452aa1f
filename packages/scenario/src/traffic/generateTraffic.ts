import { type EventType, paidUnderCap, rules, seededRandom } from "@rewards/core";

export interface TrafficOptions {
  events: number;
  users: number;
  /** Share of messages that repeat an earlier intent (new event id, new message). */
  duplicates: number;
  /** Share of poison messages: broken JSON, missing fields, unknown types. */
  invalid: number;
  /**
   * Share of events dated near and past their rule's memory, or without a time: some are
   * stale (never paid, parked), some still pay (88 days old, no time, a signup from five
   * years ago), and some replay a stale one (default 0).
   */
  old?: number;
  seed: number;
  /**
   * The worker's REWARDS_DAILY_XP_CAP, for the expectations: a user's XP of a day is then
   * min(cap, what that day's intents ask), whatever order they are paid in (signups aside).
   */
  dailyCap?: number | undefined;
  /** "Now" for the events' times (default: the clock); fixed, a seed reproduces byte-identical bodies. */
  epoch?: Date;
}

/** `stale`: older than its rule's memory; the worker parks it and never pays it. */
export type TrafficKind = "unique" | "duplicate" | "invalid" | "stale";

export interface TrafficMessage {
  kind: TrafficKind;
  body: string;
  /** The type attribute producers set; absent on broken JSON. */
  type?: string;
}

export interface Traffic {
  messages: TrafficMessage[];
  /** XP each user must end with: unique valid intents × their rule's XP (capped per UTC day under a cap). */
  expectedXp: Record<string, number>;
  uniqueIntents: number;
  counts: Record<TrafficKind, number>;
  /** Each user's kept days (docs/reading.md#streaks): the days of the streak.day intents paid, sorted. */
  expectedKeptDays: Record<string, string[]>;
}

const CHANNELS = ["mastodon", "bluesky", "email", "link"];
const DAY_MS = 86_400_000;
/** Streak days a user gets before their streak events turn into articles (all well inside the memory). */
const MAX_STREAK_DAYS = 70;
/** A user's streak days run back from today in runs of this many, a day left out between runs. */
const STREAK_RUN = 7;
const POISON = ["broken_json", "missing_field", "unknown_type"] as const;

/**
 * Synthetic reading traffic over all four event types, reproducible for a seed. Pure:
 * the same options always give the same messages and expectations.
 */
export function generateTraffic(options: TrafficOptions): Traffic {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const epoch = options.epoch ?? new Date();
  // The seed is part of the user id, so runs with different seeds never share a profile
  // and each can be verified on its own; rerunning one seed only replays its intents.
  const users = Array.from(
    { length: options.users },
    (_, i) => `load-${options.seed}-user-${String(i).padStart(4, "0")}`,
  );
  const signedUp = new Set<string>();
  const streakDays = new Map<string, number>();
  const staleBodies: TrafficMessage[] = [];
  const emitted: Array<{ type: EventType; data: Record<string, string> }> = [];
  /** XP asked per user and UTC day of the event's time; the cap applies to each day's sum. */
  const asked = new Map<string, Map<string, number>>();
  const uncapped: Record<string, number> = {};
  const counts: Record<TrafficKind, number> = { unique: 0, duplicate: 0, invalid: 0, stale: 0 };
  const messages: TrafficMessage[] = [];
  const keptDays: Record<string, string[]> = {};
  let sequence = 0;

  // Times run up to the epoch, a second apart: every event is in the past when it is sent.
  const envelope = (
    type: string,
    data: unknown,
    time: Date | null = new Date(epoch.getTime() - (options.events - sequence) * 1000),
  ) => ({
    specversion: "1.0",
    id: `evt-load-${options.seed}-${sequence}`,
    source: "/rewards/load",
    type,
    ...(time ? { time: time.toISOString() } : {}),
    datacontenttype: "application/json",
    data,
  });
  const daysAgo = (days: number) => new Date(epoch.getTime() - days * DAY_MS);

  const newIntent = (): { type: EventType; data: Record<string, string> } => {
    const userId = pick(users);
    const roll = random();
    if (roll < 0.05 && !signedUp.has(userId)) {
      signedUp.add(userId);
      return { type: "signup.completed", data: { userId } };
    }
    const streaks = streakDays.get(userId) ?? 0;
    if (roll < 0.25 && streaks < MAX_STREAK_DAYS) {
      streakDays.set(userId, streaks + 1);
      // Newest first (out of order), runs of STREAK_RUN days with a gap between: runs to join, none to merge.
      const back = streaks + Math.floor(streaks / STREAK_RUN);
      return { type: "streak.day", data: { userId, day: daysAgo(back).toISOString().slice(0, 10) } };
    }
    if (roll < 0.45) {
      return {
        type: "article.shared",
        data: { userId, articleSlug: `article-${sequence}`, channel: pick(CHANNELS) },
      };
    }
    return { type: "article.completed", data: { userId, articleSlug: `article-${sequence}` } };
  };

  const pay = (intent: { type: EventType; data: Record<string, string> }, time?: Date | null) => {
    emitted.push(intent);
    counts.unique++;
    const userId = intent.data.userId as string;
    if (intent.type === "streak.day")
      keptDays[userId] = [...(keptDays[userId] ?? []), intent.data.day as string];
    const event = envelope(intent.type, intent.data, time);
    const rule = rules[intent.type];
    if (options.dailyCap !== undefined && rule.dailyCapped) {
      // Undated events count toward the day they are sent: the epoch's.
      const day = (event.time ?? epoch.toISOString()).slice(0, 10);
      const days = asked.get(userId) ?? new Map<string, number>();
      days.set(day, (days.get(day) ?? 0) + rule.xp);
      asked.set(userId, days);
    } else uncapped[userId] = (uncapped[userId] ?? 0) + rule.xp;
    messages.push({ kind: "unique", type: intent.type, body: JSON.stringify(event) });
  };
  const stale = (type: EventType, data: Record<string, string>, time?: Date) => {
    const message = { kind: "stale" as const, type, body: JSON.stringify(envelope(type, data, time)) };
    staleBodies.push(message);
    counts.stale++;
    messages.push(message);
  };

  /** Events near and past their memory (90 days, judged at 89), without a time, and replays. */
  const dated = () => {
    const userId = pick(users);
    const articleSlug = `article-${sequence}`;
    switch (sequence % 6) {
      case 0:
        return stale("article.completed", { userId, articleSlug }, daysAgo(100));
      case 1:
        return stale("streak.day", { userId, day: daysAgo(100).toISOString().slice(0, 10) });
      case 2:
        return pay({ type: "article.completed", data: { userId, articleSlug } }, daysAgo(88));
      case 3:
        return pay({ type: "article.shared", data: { userId, articleSlug, channel: pick(CHANNELS) } }, null);
      case 4:
        if (!signedUp.has(userId)) {
          signedUp.add(userId);
          return pay({ type: "signup.completed", data: { userId } }, daysAgo(5 * 365));
        }
        return pay({ type: "article.completed", data: { userId, articleSlug } }, daysAgo(88));
      default: {
        const again = staleBodies.length > 0 ? pick(staleBodies) : undefined;
        if (!again) return stale("article.completed", { userId, articleSlug }, daysAgo(100));
        counts.stale++;
        messages.push({ ...again });
      }
    }
  };

  for (; sequence < options.events; sequence++) {
    const roll = random();
    if (roll >= 1 - (options.old ?? 0)) {
      dated();
      continue;
    }
    if (roll < options.invalid) {
      const poison = POISON[sequence % POISON.length] as (typeof POISON)[number];
      counts.invalid++;
      if (poison === "broken_json")
        messages.push({ kind: "invalid", body: `{"specversion":"1.0","id":"evt-${sequence}"` });
      else if (poison === "missing_field")
        messages.push({
          kind: "invalid",
          type: "article.completed",
          body: JSON.stringify(envelope("article.completed", { userId: pick(users) })),
        });
      else
        messages.push({
          kind: "invalid",
          type: "article.liked",
          body: JSON.stringify(envelope("article.liked", { userId: pick(users) })),
        });
      continue;
    }
    if (roll < options.invalid + options.duplicates && emitted.length > 0) {
      const again = pick(emitted);
      counts.duplicate++;
      messages.push({
        kind: "duplicate",
        type: again.type,
        body: JSON.stringify(envelope(again.type, again.data)),
      });
      continue;
    }
    pay(newIntent());
  }
  const expectedXp: Record<string, number> = { ...uncapped };
  for (const [userId, days] of asked) {
    for (const xp of days.values())
      expectedXp[userId] = (expectedXp[userId] ?? 0) + paidUnderCap(xp, 0, options.dailyCap);
  }
  for (const days of Object.values(keptDays)) days.sort();
  return { messages, expectedXp, uniqueIntents: counts.unique, counts, expectedKeptDays: keptDays };
}
