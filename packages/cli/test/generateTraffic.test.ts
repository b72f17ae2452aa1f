import { decodeEvent, rules } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { generateTraffic } from "../src/traffic/generateTraffic";

const options = { events: 2000, users: 50, duplicates: 0.25, invalid: 0.02, seed: 9 };

describe("generateTraffic", () => {
  it("is reproducible for a seed and differs across seeds", () => {
    expect(generateTraffic(options)).toEqual(generateTraffic(options));
    expect(generateTraffic({ ...options, seed: 10 }).messages).not.toEqual(generateTraffic(options).messages);
  });

  it("expects exactly the XP of its unique valid intents, and poison never decodes", () => {
    const traffic = generateTraffic(options);
    const paid = new Map<string, number>();
    const users = new Map<string, number>();
    for (const message of traffic.messages) {
      const decoded = decodeEvent(message.body);
      expect(decoded.ok).toBe(message.kind !== "invalid");
      if (!decoded.ok) continue;
      if (paid.has(decoded.award.intentKey)) {
        expect(message.kind).toBe("duplicate");
        continue;
      }
      expect(message.kind).toBe("unique");
      paid.set(decoded.award.intentKey, decoded.award.amount);
      users.set(decoded.award.userId, (users.get(decoded.award.userId) ?? 0) + rules[decoded.award.type].xp);
    }
    expect(paid.size).toBe(traffic.uniqueIntents);
    expect(Object.fromEntries(users)).toEqual(traffic.expectedXp);
    expect(traffic.counts.unique + traffic.counts.duplicate + traffic.counts.invalid).toBe(2000);
    // All four types, unknown types and broken JSON (no type attribute) all occur.
    expect(new Set(traffic.messages.map((m) => m.type))).toEqual(
      new Set([...Object.keys(rules), "article.liked", undefined]),
    );
  });
});
