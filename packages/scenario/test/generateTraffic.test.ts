import { decodeEvent, type EventType, rules, untimelyReason } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { generateTraffic } from "../src/traffic/generateTraffic";

const epoch = new Date("2026-12-01T12:00:00.000Z");
const options = { events: 2000, users: 50, duplicates: 0.25, invalid: 0.02, old: 0.06, seed: 9, epoch };

describe("generateTraffic", () => {
  it("is reproducible for a seed and differs across seeds", () => {
    expect(generateTraffic(options)).toEqual(generateTraffic(options));
    expect(generateTraffic({ ...options, seed: 10 }).messages).not.toEqual(generateTraffic(options).messages);
  });

  it("expects exactly the XP of its unique valid intents that are young enough; poison never decodes", () => {
    const traffic = generateTraffic(options);
    const paid = new Map<string, number>();
    const users = new Map<string, number>();
    for (const message of traffic.messages) {
      const decoded = decodeEvent(message.body);
      expect(decoded.ok).toBe(message.kind !== "invalid");
      if (!decoded.ok) continue;
      // Judged when sent (SentTimestamp = the epoch, for those without a time).
      const untimely = untimelyReason(
        decoded.award,
        { sentTimestamp: String(epoch.getTime()) },
        epoch.getTime(),
      );
      expect(untimely?.code).toBe(message.kind === "stale" ? "stale" : undefined);
      if (untimely) continue;
      if (paid.has(decoded.award.intentKey)) {
        expect(message.kind).toBe("duplicate");
        continue;
      }
      expect(message.kind).toBe("unique");
      paid.set(decoded.award.intentKey, decoded.award.amount);
      users.set(
        decoded.award.userId,
        (users.get(decoded.award.userId) ?? 0) + rules[decoded.award.type as EventType].xp,
      );
    }
    expect(paid.size).toBe(traffic.uniqueIntents);
    expect(Object.fromEntries(users)).toEqual(traffic.expectedXp);
    const { unique, duplicate, invalid, stale } = traffic.counts;
    expect(unique + duplicate + invalid + stale).toBe(2000);
    expect(stale).toBeGreaterThan(0);
    // All four types, unknown types and broken JSON (no type attribute) all occur.
    expect(new Set(traffic.messages.map((m) => m.type))).toEqual(
      new Set([...Object.keys(rules), "article.liked", undefined]),
    );
    // Some events have no time at all; one signup is five years old.
    expect(traffic.messages.some((m) => m.kind === "unique" && !m.body.includes('"time"'))).toBe(true);
    expect(traffic.messages.some((m) => m.body.includes('"time":"2021-'))).toBe(true);
  });
});
