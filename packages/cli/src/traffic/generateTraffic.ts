import { type EventType, rules, seededRandom } from "@rewards/core";

export interface TrafficOptions {
  events: number;
  users: number;
  /** Share of messages that repeat an earlier intent (new event id, new message). */
  duplicates: number;
  /** Share of poison messages: broken JSON, missing fields, unknown types. */
  invalid: number;
  seed: number;
  /** Fixed clock for the events' `time`, so a seed reproduces byte-identical bodies. */
  epoch?: Date;
}

export type TrafficKind = "unique" | "duplicate" | "invalid";

export interface TrafficMessage {
  kind: TrafficKind;
  body: string;
  /** The type attribute producers set; absent on broken JSON. */
  type?: string;
}

export interface Traffic {
  messages: TrafficMessage[];
  /** XP each user must end with: unique valid intents × their rule's XP. */
  expectedXp: Record<string, number>;
  uniqueIntents: number;
  counts: Record<TrafficKind, number>;
}

const CHANNELS = ["mastodon", "bluesky", "email", "link"];
const POISON = ["broken_json", "missing_field", "unknown_type"] as const;

/**
 * Synthetic reading traffic over all four event types, reproducible for a seed. Pure:
 * the same options always give the same messages and expectations.
 */
export function generateTraffic(options: TrafficOptions): Traffic {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const epoch = options.epoch ?? new Date("2026-11-29T00:00:00.000Z");
  // The seed is part of the user id, so runs with different seeds never share a profile
  // and each can be verified on its own; rerunning one seed only replays its intents.
  const users = Array.from(
    { length: options.users },
    (_, i) => `load-${options.seed}-user-${String(i).padStart(4, "0")}`,
  );
  const signedUp = new Set<string>();
  const emitted: Array<{ type: EventType; data: Record<string, string> }> = [];
  const expectedXp: Record<string, number> = {};
  const counts: Record<TrafficKind, number> = { unique: 0, duplicate: 0, invalid: 0 };
  const messages: TrafficMessage[] = [];
  let sequence = 0;

  const envelope = (type: string, data: unknown) => ({
    specversion: "1.0",
    id: `evt-load-${options.seed}-${sequence}`,
    source: "/rewards/load",
    type,
    time: new Date(epoch.getTime() + sequence * 1000).toISOString(),
    datacontenttype: "application/json",
    data,
  });

  const newIntent = (): { type: EventType; data: Record<string, string> } => {
    const userId = pick(users);
    const roll = random();
    if (roll < 0.05 && !signedUp.has(userId)) {
      signedUp.add(userId);
      return { type: "signup.completed", data: { userId } };
    }
    if (roll < 0.25) {
      const day = new Date(epoch.getTime() - sequence * 86_400_000).toISOString().slice(0, 10);
      return { type: "streak.day", data: { userId, day } };
    }
    if (roll < 0.45) {
      return {
        type: "article.shared",
        data: { userId, articleSlug: `article-${sequence}`, channel: pick(CHANNELS) },
      };
    }
    return { type: "article.completed", data: { userId, articleSlug: `article-${sequence}` } };
  };

  for (; sequence < options.events; sequence++) {
    const roll = random();
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
    const intent = newIntent();
    emitted.push(intent);
    counts.unique++;
    const userId = intent.data.userId as string;
    expectedXp[userId] = (expectedXp[userId] ?? 0) + rules[intent.type].xp;
    messages.push({
      kind: "unique",
      type: intent.type,
      body: JSON.stringify(envelope(intent.type, intent.data)),
    });
  }
  return { messages, expectedXp, uniqueIntents: counts.unique, counts };
}
