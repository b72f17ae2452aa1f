import { describe, expect, it } from "vitest";
import {
  AWARD_SK_PREFIX,
  grantId,
  guardImageSchema,
  historyItemKey,
  historyItemOf,
  historyItemSchema,
  historyPutOf,
} from "../src/domain";

const AWARDED = "2026-11-29T10:00:01.234Z";
const AWARDED_S = Math.floor(Date.parse(AWARDED) / 1000);
const KEY = "user123#idempotent-writes#article.completed";
const guard = (extra: Record<string, unknown> = {}) =>
  guardImageSchema.parse({
    pk: `IDEM#${KEY}`,
    sk: "IDEM",
    userId: "user123",
    type: "article.completed",
    amount: 20,
    eventId: "evt-1",
    messageId: "m-1",
    awardedAt: AWARDED,
    expiresAt: AWARDED_S + 90 * 86_400,
    eventTime: "2026-11-29T09:59:58.000Z",
    data: { articleSlug: "idempotent-writes" },
    ...extra,
  });
const ID = grantId(KEY, AWARDED);

describe("historyItemKey", () => {
  it("is the user's partition, sorted by awardedAt then the grant id", () => {
    expect(AWARD_SK_PREFIX).toBe("AWARD#");
    expect(historyItemKey("u", AWARDED, "grant-x")).toStrictEqual({
      pk: "USER#u",
      sk: `AWARD#${AWARDED}#grant-x`,
    });
  });
});

describe("historyItemOf", () => {
  it("an award: exactly the attributes of docs/history.md#the-item, expiring historyDays after awardedAt", () => {
    const item = historyItemOf(guard(), { historyDays: 400 });
    expect(item).toStrictEqual({
      pk: "USER#user123",
      sk: `AWARD#${AWARDED}#${ID}`,
      id: ID,
      type: "article.completed",
      data: { articleSlug: "idempotent-writes" },
      xp: 20,
      eventId: "evt-1",
      eventTime: "2026-11-29T09:59:58.000Z",
      earnedOn: "2026-11-29",
      awardedAt: AWARDED,
      intentKey: KEY,
      expiresAt: AWARDED_S + 400 * 86_400,
    });
    expect(historyItemSchema.parse(item)).toStrictEqual(item);
  });

  it("carries its guard's place in its transaction and whether it was counted", () => {
    expect(historyItemOf(guard({ seq: 3, counted: true }), { historyDays: 400 })).toMatchObject({
      seq: 3,
      counted: true,
    });
    const plain = historyItemOf(guard(), { historyDays: 400 });
    expect(plain).not.toHaveProperty("seq");
    expect(plain).not.toHaveProperty("counted");
  });

  it("a streak.day guard written before `data` keeps its day: its intent key holds it", () => {
    const old = (key: string) =>
      historyItemOf(guard({ pk: `IDEM#${key}`, type: "streak.day", data: undefined, eventTime: undefined }), {
        historyDays: 400,
      }).data;
    expect(old("user123#2026-11-28#streak.day")).toStrictEqual({ day: "2026-11-28" });
    // Escaped user ids keep their parts apart; a hashed key (too long) says nothing; nor other types.
    expect(old("us%23er#2026-11-28#streak.day")).toStrictEqual({ day: "2026-11-28" });
    expect(old("sha256:abc")).toStrictEqual({});
    expect(old("user123#not-a-day#streak.day")).toStrictEqual({});
    expect(historyItemOf(guard({ data: undefined }), { historyDays: 400 }).data).toStrictEqual({});
  });

  it("historyDays 0 keeps it forever: no expiresAt (never the guard's)", () => {
    expect(historyItemOf(guard(), { historyDays: 0 })).not.toHaveProperty("expiresAt");
    expect(historyItemOf(guard(), { historyDays: 1 }).expiresAt).toBe(AWARDED_S + 86_400);
  });

  it("a capped award: 0 XP paid, with what was requested", () => {
    const item = historyItemOf(guard({ amount: 0, requested: 20 }), { historyDays: 400 });
    expect(item.xp).toBe(0);
    expect(item.requestedXp).toBe(20);
    const partly = historyItemOf(guard({ amount: 5, requested: 20 }), { historyDays: 400 });
    expect([partly.xp, partly.requestedXp]).toStrictEqual([5, 20]);
    expect(historyItemOf(guard(), { historyDays: 400 })).not.toHaveProperty("requestedXp");
  });

  it("a revoked award: the same item, marked", () => {
    const revoked = historyItemOf(guard({ revokedAt: "2026-11-30T00:00:00.000Z", revokedReason: "abuse" }), {
      historyDays: 400,
    });
    expect(revoked).toStrictEqual({
      ...historyItemOf(guard(), { historyDays: 400 }),
      revokedAt: "2026-11-30T00:00:00.000Z",
      revokedReason: "abuse",
    });
  });

  it("a guard written before the history: eventTime = awardedAt, data {}, earnedOn its UTC day", () => {
    const old = guard({ eventTime: undefined, data: undefined, awardedAt: "2026-11-29T23:59:59.999Z" });
    const item = historyItemOf(old, { historyDays: 400 });
    expect(item.eventTime).toBe("2026-11-29T23:59:59.999Z");
    expect(item.data).toStrictEqual({});
    expect(item.earnedOn).toBe("2026-11-29");
    expect(item.id).toBe(grantId(KEY, "2026-11-29T23:59:59.999Z"));
  });

  it("earnedOn is the UTC day of eventTime (not awardedAt), whatever the offset written", () => {
    const late = guard({ eventTime: "2026-11-28T23:59:59.999Z" });
    expect(historyItemOf(late, { historyDays: 400 }).earnedOn).toBe("2026-11-28");
    // 09:30 on the 29th at UTC+14 is 19:30 on the 28th in UTC; 18:00 at UTC−12 is 06:00 on the 30th.
    expect(
      historyItemOf(guard({ eventTime: "2026-11-29T09:30:00+14:00" }), { historyDays: 1 }).earnedOn,
    ).toBe("2026-11-28");
    expect(
      historyItemOf(guard({ eventTime: "2026-11-29T18:00:00-12:00" }), { historyDays: 1 }).earnedOn,
    ).toBe("2026-11-30");
  });

  it("a signup: empty data, its own id", () => {
    const signupKey = "user123#signup.completed";
    const item = historyItemOf(
      guard({
        pk: `IDEM#${signupKey}`,
        type: "signup.completed",
        amount: 100,
        data: {},
        expiresAt: undefined,
      }),
      { historyDays: 400 },
    );
    expect([item.type, item.xp, item.intentKey, item.id]).toStrictEqual([
      "signup.completed",
      100,
      signupKey,
      grantId(signupKey, AWARDED),
    ]);
    expect(item.data).toStrictEqual({});
  });
});

describe("historyPutOf", () => {
  it("an unrevoked image: a Put that never overwrites a revocation", () => {
    const item = historyItemOf(guard(), { historyDays: 400 });
    expect(historyPutOf(item, "t")).toStrictEqual({
      TableName: "t",
      Item: item,
      ConditionExpression: "attribute_not_exists(revokedAt)",
    });
  });

  it("a revoked image: an unconditional Put (every copy writes the same)", () => {
    const item = historyItemOf(guard({ revokedAt: "2026-11-30T00:00:00.000Z", revokedReason: "abuse" }), {
      historyDays: 400,
    });
    expect(historyPutOf(item, "t")).toStrictEqual({ TableName: "t", Item: item });
  });
});
