import { describe, expect, it } from "vitest";
import {
  type AwardRequest,
  cappedDay,
  countsByType,
  dayTotalExpiresAt,
  MAX_TRANSACTION_ITEMS,
  payable,
  planAwardTransaction,
  profileUpdate,
} from "../src/domain";
import {
  isStoredInstant,
  keptStamp,
  readCancellation,
  restamped,
  stampProblem,
  transactionsOf,
} from "../src/domain/award/awardPlan";

const now = new Date("2026-11-29T10:00:00.000Z");
const epoch = 1_795_946_400;
const TTL = 90 * 86_400;
const award = (slug: string, extra: Partial<AwardRequest> = {}): AwardRequest => ({
  intentKey: `user123#${slug}#article.completed`,
  userId: "user123",
  type: "article.completed",
  amount: 20,
  eventId: `evt-${slug}`,
  data: { articleSlug: slug },
  guardTtlSeconds: TTL,
  messageId: `m-${slug}`,
  ...extra,
});
const signup: AwardRequest = {
  intentKey: "user123#signup.completed",
  userId: "user123",
  type: "signup.completed",
  amount: 100,
  eventId: "evt-s",
  data: {},
  guardTtlSeconds: undefined,
};

describe("planAwardTransaction", () => {
  it("one award: the guard put first, conditionally, then the profile update", () => {
    const timed = award("idempotent-writes", { eventTime: "2026-11-28T23:59:59.999Z" });
    expect(planAwardTransaction([timed], { tableName: "t", now })).toStrictEqual({
      input: {
        TransactItems: [
          {
            Put: {
              TableName: "t",
              Item: {
                pk: "IDEM#user123#idempotent-writes#article.completed",
                sk: "IDEM",
                userId: "user123",
                type: "article.completed",
                amount: 20,
                eventId: "evt-idempotent-writes",
                messageId: "m-idempotent-writes",
                awardedAt: "2026-11-29T10:00:00.000Z",
                data: { articleSlug: "idempotent-writes" },
                counted: true,
                eventTime: "2026-11-28T23:59:59.999Z",
                expiresAt: epoch + TTL,
              },
              ConditionExpression: "attribute_not_exists(pk) OR expiresAt < :now",
              ExpressionAttributeValues: { ":now": epoch },
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          {
            Update: {
              TableName: "t",
              Key: { pk: "USER#user123", sk: "PROFILE" },
              UpdateExpression: "ADD xp :xp, awards :awards, #count0 :count0 SET updatedAt = :now",
              ExpressionAttributeNames: { "#count0": "count:article.completed" },
              ExpressionAttributeValues: {
                ":xp": 20,
                ":awards": 1,
                ":now": "2026-11-29T10:00:00.000Z",
                ":count0": 1,
              },
              // The reader's commits in the order of their instants: stamped after the profile's last change.
              ConditionExpression: "attribute_not_exists(updatedAt) OR updatedAt < :now",
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
        ],
      },
      items: [{ kind: "guard", award: 0 }, { kind: "profile" }],
      paid: [20],
    });
  });

  it("several awards: guard i is item i, one profile update with their sum, count and count per type", () => {
    const plan = planAwardTransaction([award("a"), signup, award("b")], { tableName: "t", now });
    expect(plan.items).toEqual([
      { kind: "guard", award: 0 },
      { kind: "guard", award: 1 },
      { kind: "guard", award: 2 },
      { kind: "profile" },
    ]);
    const items = plan.input.TransactItems ?? [];
    expect(items.map((item) => item.Put?.Item?.pk ?? item.Update?.Key?.pk)).toEqual([
      "IDEM#user123#a#article.completed",
      "IDEM#user123#signup.completed",
      "IDEM#user123#b#article.completed",
      "USER#user123",
    ]);
    expect(items[3]?.Update).toEqual({
      TableName: "t",
      Key: { pk: "USER#user123", sk: "PROFILE" },
      UpdateExpression: "ADD xp :xp, awards :awards, #count0 :count0, #count1 :count1 SET updatedAt = :now",
      ExpressionAttributeNames: { "#count0": "count:article.completed", "#count1": "count:signup.completed" },
      ExpressionAttributeValues: {
        ":xp": 140,
        ":awards": 3,
        ":now": "2026-11-29T10:00:00.000Z",
        ":count0": 2,
        ":count1": 1,
      },
      ConditionExpression: "attribute_not_exists(updatedAt) OR updatedAt < :now",
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    });
    // A guard kept forever has no expiresAt; a guard without a message id has no messageId.
    expect(items[1]?.Put?.Item).not.toHaveProperty("expiresAt");
    expect(items[1]?.Put?.Item).not.toHaveProperty("messageId");
    expect(items[1]?.Put?.Item).not.toHaveProperty("requested");
    // A signup's data is empty, not absent; an award not told its event's time stores none.
    expect(items[1]?.Put?.Item?.data).toStrictEqual({});
    expect(items[1]?.Put?.Item).not.toHaveProperty("eventTime");
    expect(new Set(items.slice(0, 3).map((item) => item.Put?.Item?.awardedAt))).toEqual(
      new Set(["2026-11-29T10:00:00.000Z"]),
    );
    // One instant for all: each guard says its place in the transaction (the timeline's order), and that it was counted.
    expect(items.slice(0, 3).map((item) => [item.Put?.Item?.seq, item.Put?.Item?.counted])).toEqual([
      [0, true],
      [1, true],
      [2, true],
    ]);
    // Alone in its transaction, a guard needs no place.
    const alone = planAwardTransaction([award("a")], { tableName: "t", now }).input.TransactItems?.[0]?.Put
      ?.Item;
    expect(alone).not.toHaveProperty("seq");
    expect(alone?.counted).toBe(true);
  });

  it("refuses an empty list: a transaction of nothing is a bug", () => {
    expect(() => planAwardTransaction([], { tableName: "t", now })).toThrow(RangeError);
  });

  it("under a cap: the day totals follow the profile, conditional on the cap, and cut awards in order", () => {
    const plan = planAwardTransaction(
      [
        award("a", { earnedOn: "2026-11-29" }),
        award("b", { earnedOn: "2026-11-28" }),
        award("c", { earnedOn: "2026-11-29" }),
        signup,
        award("d", { earnedOn: "2026-11-29" }),
      ],
      { tableName: "t", now, dailyCap: 30, dayTotals: new Map([["2026-11-28", 25]]) },
    );
    expect(plan.paid).toEqual([20, 5, 10, 100, 0]);
    const items = plan.input.TransactItems ?? [];
    expect(items).toHaveLength(8);
    expect(items[2]?.Put?.Item).toMatchObject({ amount: 10, requested: 20 });
    expect(items[4]?.Put?.Item).toMatchObject({ amount: 0, requested: 20 });
    expect(items[1]?.Put?.Item).toMatchObject({ amount: 5, requested: 20 });
    expect(items[0]?.Put?.Item).not.toHaveProperty("requested");
    // The award the cap paid nothing still counts, as an award and toward its type.
    expect(items[5]?.Update).toMatchObject({
      UpdateExpression: "ADD xp :xp, awards :awards, #count0 :count0, #count1 :count1 SET updatedAt = :now",
      ExpressionAttributeNames: { "#count0": "count:article.completed", "#count1": "count:signup.completed" },
      ExpressionAttributeValues: {
        ":xp": 135,
        ":awards": 5,
        ":now": "2026-11-29T10:00:00.000Z",
        ":count0": 4,
        ":count1": 1,
      },
    });
    expect(items[6]).toEqual({
      Update: {
        TableName: "t",
        Key: { pk: "USER#user123", sk: "DAY#2026-11-29" },
        UpdateExpression: "ADD xp :xp SET expiresAt = :expiresAt",
        ConditionExpression: "attribute_not_exists(xp) OR xp <= :room",
        ExpressionAttributeValues: { ":xp": 30, ":expiresAt": dayTotalExpiresAt("2026-11-29"), ":room": 0 },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    });
    expect(items[7]?.Update?.Key).toEqual({ pk: "USER#user123", sk: "DAY#2026-11-28" });
    expect(items[7]?.Update?.ExpressionAttributeValues).toMatchObject({ ":xp": 5, ":room": 25 });
    expect(plan.items.slice(5)).toEqual([
      { kind: "profile" },
      { kind: "day", day: "2026-11-29", paid: 30 },
      { kind: "day", day: "2026-11-28", paid: 5 },
    ]);
  });

  it("a day that pays nothing is left out (a lowered cap cannot fail a day already past it)", () => {
    const plan = planAwardTransaction([award("a", { earnedOn: "2026-11-29" })], {
      tableName: "t",
      now,
      dailyCap: 30,
      dayTotals: new Map([["2026-11-29", 40]]),
    });
    expect(plan.paid).toEqual([0]);
    expect(plan.items).toEqual([{ kind: "guard", award: 0 }, { kind: "profile" }]);
  });
});

describe("the profile's counts per event type", () => {
  const typed = (type: AwardRequest["type"], slug: string) =>
    award(slug, { type, intentKey: `user123#${slug}#${type}` });

  it("counts each award once toward its type, types in the order they first appear", () => {
    expect(countsByType([])).toEqual(new Map());
    const counts = countsByType([
      typed("streak.day", "d1"),
      typed("article.completed", "a"),
      typed("streak.day", "d2"),
      typed("article.shared", "s"),
      typed("streak.day", "d3"),
      signup,
    ]);
    expect([...counts]).toEqual([
      ["streak.day", 3],
      ["article.completed", 1],
      ["article.shared", 1],
      ["signup.completed", 1],
    ]);
  });

  it("adds each type's count to its own attribute, through names (the attribute has ':' and '.')", () => {
    expect(
      profileUpdate(
        new Map([
          ["article.shared", 2],
          ["streak.day", 1],
        ]),
      ),
    ).toStrictEqual({
      UpdateExpression: "ADD xp :xp, awards :awards, #count0 :count0, #count1 :count1 SET updatedAt = :now",
      ExpressionAttributeNames: { "#count0": "count:article.shared", "#count1": "count:streak.day" },
      countValues: { ":count0": 2, ":count1": 1 },
    });
  });

  it("no type counted: XP and awards only, and no names (DynamoDB refuses an empty map)", () => {
    expect(profileUpdate(new Map())).toStrictEqual({
      UpdateExpression: "ADD xp :xp, awards :awards SET updatedAt = :now",
      countValues: {},
    });
  });

  it("one transaction of every type: each count names its type, with that type's number of awards", () => {
    const plan = planAwardTransaction(
      [
        typed("article.shared", "s1"),
        typed("article.completed", "a1"),
        typed("article.shared", "s2"),
        typed("streak.day", "d1"),
        signup,
        typed("article.shared", "s3"),
      ],
      { tableName: "t", now },
    );
    const profile = plan.input.TransactItems?.[6]?.Update;
    expect(profile?.UpdateExpression).toBe(
      "ADD xp :xp, awards :awards, #count0 :count0, #count1 :count1, #count2 :count2, #count3 :count3 SET updatedAt = :now",
    );
    expect(profile?.ExpressionAttributeNames).toStrictEqual({
      "#count0": "count:article.shared",
      "#count1": "count:article.completed",
      "#count2": "count:streak.day",
      "#count3": "count:signup.completed",
    });
    expect(profile?.ExpressionAttributeValues).toStrictEqual({
      ":xp": 5 * 20 + 100,
      ":awards": 6,
      ":now": "2026-11-29T10:00:00.000Z",
      ":count0": 3,
      ":count1": 1,
      ":count2": 1,
      ":count3": 1,
    });
  });
});

describe("payable and the cap's day", () => {
  it("pays the rule's XP without a cap, and never caps a signup", () => {
    expect(payable([award("a"), signup], { now })).toEqual([20, 100]);
    expect(payable([signup, signup], { now, dailyCap: 1 })).toEqual([100, 100]);
    expect(cappedDay(signup, now, 1)).toBeUndefined();
    expect(cappedDay(award("a"), now, undefined)).toBeUndefined();
  });

  it("counts an award toward its event's day, else the clock's (UTC)", () => {
    expect(cappedDay(award("a", { earnedOn: "2026-01-02" }), now, 50)).toBe("2026-01-02");
    expect(cappedDay(award("a"), new Date("2026-11-29T23:59:59.999Z"), 50)).toBe("2026-11-29");
  });

  it("what is left, possibly 0, in input order, per day", () => {
    const day = (slug: string, earnedOn: string) => award(slug, { earnedOn });
    expect(
      payable([day("a", "d1"), day("b", "d1"), day("c", "d2"), day("d", "d1"), day("e", "d1")], {
        now,
        dailyCap: 50,
        dayTotals: new Map([["d2", 45]]),
      }),
    ).toEqual([20, 20, 5, 10, 0]);
    expect(payable([day("a", "d1")], { now, dailyCap: 50, dayTotals: new Map([["d1", 70]]) })).toEqual([0]);
  });

  it("a day's total outlives its day by the longest capped memory", () => {
    expect(dayTotalExpiresAt("2026-11-29")).toBe(Date.parse("2026-11-30T00:00:00Z") / 1000 + TTL);
  });
});

describe("transactionsOf: runs that fit 100 items", () => {
  const many = (n: number, extra: Partial<AwardRequest> = {}) =>
    Array.from({ length: n }, (_, i) => award(`s${i}`, extra));

  it("99 awards and the profile fit one transaction; the 100th starts another", () => {
    expect(MAX_TRANSACTION_ITEMS).toBe(100);
    expect(transactionsOf(many(99), now, undefined).map((run) => run.length)).toEqual([99]);
    expect(transactionsOf(many(100), now, undefined).map((run) => run.length)).toEqual([99, 1]);
    expect(transactionsOf(many(250), now, undefined).map((run) => run.length)).toEqual([99, 99, 52]);
    expect(transactionsOf([], now, undefined)).toEqual([]);
  });

  it("under a cap the day totals count: 98 awards of one day, the profile and the day", () => {
    const runs = transactionsOf(many(100, { earnedOn: "2026-11-29" }), now, 10);
    expect(runs.map((run) => run.length)).toEqual([98, 2]);
    expect(runs[1]?.map((a) => a.eventId)).toEqual(["evt-s98", "evt-s99"]);
  });
});

describe("readCancellation", () => {
  const plain = (item: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(item).map(([key, value]) => {
        const typed = value as { S?: string; N?: string };
        return [key, typed.N !== undefined ? Number(typed.N) : typed.S];
      }),
    );
  const awards = [
    award("a", { earnedOn: "d1" }),
    award("b", { earnedOn: "d1" }),
    award("c", { earnedOn: "d2" }),
    signup,
  ];
  const context = { tableName: "t", now, dailyCap: 100 };
  const plan = planAwardTransaction(awards, context);
  const none = { Code: "None" };

  it("a guard's failed condition: paid before, with the guard it met; the others go again", () => {
    const reading = readCancellation(
      plan,
      [
        none,
        { Code: "ConditionalCheckFailed", Item: { messageId: { S: "m-x" }, amount: { N: "20" } } },
        none,
        none,
        none,
        none,
        none,
      ],
      awards,
      context,
      plain,
    );
    expect(reading.awards).toEqual([
      { kind: "again" },
      { kind: "paid_before", guard: { messageId: "m-x", amount: 20 } },
      { kind: "again" },
      { kind: "again" },
    ]);
    expect(reading.dayTotals).toEqual(new Map());
    expect(reading.unreadDays).toEqual([]);
  });

  it("a guard met without its item (no ALL_OLD) is still paid before", () => {
    const reading = readCancellation(plan, [{ Code: "ConditionalCheckFailed" }], awards, context, plain);
    expect(reading.awards[0]).toEqual({ kind: "paid_before", guard: undefined });
    expect(reading.awards[1]).toEqual({ kind: "again" });
  });

  it("a refused profile refuses every award not paid before; a refused guard only its own", () => {
    const reading = readCancellation(
      plan,
      [
        { Code: "ConditionalCheckFailed" },
        { Code: "ValidationError", Message: "guard too big" },
        none,
        none,
        { Code: "ValidationError", Message: "bad xp" },
      ],
      awards,
      context,
      plain,
    );
    expect(reading.awards).toEqual([
      { kind: "paid_before", guard: undefined },
      {
        kind: "refused",
        items: [
          { item: { kind: "guard" }, said: "guard too big" },
          { item: { kind: "profile" }, said: "bad xp" },
        ],
      },
      { kind: "refused", items: [{ item: { kind: "profile" }, said: "bad xp" }] },
      { kind: "refused", items: [{ item: { kind: "profile" }, said: "bad xp" }] },
    ]);
  });

  it("a refused item without a message is named by its code", () => {
    const reading = readCancellation(
      plan,
      [{ Code: "ItemCollectionSizeLimitExceeded" }],
      awards,
      context,
      plain,
    );
    expect(reading.awards[0]).toEqual({
      kind: "refused",
      items: [{ item: { kind: "guard" }, said: "ItemCollectionSizeLimitExceeded" }],
    });
  });

  it("a day at its cap returns its total; a day without one is unread; the awards go again", () => {
    expect(plan.items.slice(4)).toEqual([
      { kind: "profile" },
      { kind: "day", day: "d1", paid: 40 },
      { kind: "day", day: "d2", paid: 20 },
    ]);
    const reading = readCancellation(
      plan,
      [
        none,
        none,
        none,
        none,
        none,
        { Code: "ConditionalCheckFailed", Item: { xp: { N: "90" } } },
        { Code: "ConditionalCheckFailed" },
      ],
      awards,
      context,
      plain,
    );
    expect(reading.awards.map((a) => a.kind)).toEqual(["again", "again", "again", "again"]);
    expect(reading.dayTotals).toEqual(new Map([["d1", 90]]));
    expect(reading.unreadDays).toEqual(["d2"]);
  });

  it("a day whose total is not a number, or that is refused, refuses that day's awards only", () => {
    const reading = readCancellation(
      plan,
      [
        none,
        none,
        none,
        none,
        none,
        { Code: "ConditionalCheckFailed", Item: { xp: { S: "ten" } } },
        { Code: "ValidationError", Message: "no" },
      ],
      awards,
      context,
      plain,
    );
    expect(reading.awards).toEqual([
      {
        kind: "refused",
        items: [{ item: { kind: "day", day: "d1" }, said: 'its xp is not a number ("ten")' }],
      },
      {
        kind: "refused",
        items: [{ item: { kind: "day", day: "d1" }, said: 'its xp is not a number ("ten")' }],
      },
      { kind: "refused", items: [{ item: { kind: "day", day: "d2" }, said: "no" }] },
      { kind: "again" },
    ]);
    expect(reading.dayTotals).toEqual(new Map());
  });

  it("the profile's stamp refused: the awards go again, after the instant it returned; one that is no instant refuses them", () => {
    const profileRefused = (Item?: Record<string, unknown>) =>
      readCancellation(
        plan,
        [
          { Code: "ConditionalCheckFailed" },
          none,
          none,
          none,
          { Code: "ConditionalCheckFailed", ...(Item ? { Item } : {}) },
        ],
        awards,
        context,
        plain,
      );
    const ahead = profileRefused({ updatedAt: { S: "2026-11-29T10:00:05.000Z" } });
    expect(ahead.awards.map((verdict) => verdict.kind)).toEqual(["paid_before", "again", "again", "again"]);
    expect(ahead.stampedBefore).toEqual({ updatedAt: "2026-11-29T10:00:05.000Z" });
    expect(profileRefused().stampedBefore).toEqual({ updatedAt: undefined });
    const said = 'its updatedAt is not an instant ("yesterday")';
    expect(profileRefused({ updatedAt: { S: "yesterday" } })).toMatchObject({
      awards: [
        { kind: "paid_before" },
        { kind: "refused", items: [{ item: { kind: "profile" }, said }] },
        { kind: "refused", items: [{ item: { kind: "profile" }, said }] },
        { kind: "refused", items: [{ item: { kind: "profile" }, said }] },
      ],
    });
    expect(profileRefused({ updatedAt: { N: "5" } }).awards[1]).toEqual({
      kind: "refused",
      items: [{ item: { kind: "profile" }, said: "its updatedAt is not an instant (5)" }],
    });
    // Any other answer about the profile is no refused stamp.
    expect(
      readCancellation(plan, [{ Code: "ConditionalCheckFailed" }], awards, context, plain),
    ).not.toHaveProperty("stampedBefore");
  });
});

describe("restamped", () => {
  const at = (iso: string) => new Date(iso);
  it("the clock, when it is past both the refused stamp and the profile's", () => {
    expect(
      restamped(
        at("2026-12-04T10:00:00.000Z"),
        Date.parse("2026-12-04T10:00:09.000Z"),
        "2026-12-04T10:00:05.000Z",
      ),
    ).toEqual(at("2026-12-04T10:00:09.000Z"));
  });
  it("else one millisecond after the later of the two", () => {
    const clock = Date.parse("2026-12-04T10:00:00.000Z");
    expect(restamped(at("2026-12-04T10:00:00.000Z"), clock, "2026-12-04T10:00:05.000Z")).toEqual(
      at("2026-12-04T10:00:05.001Z"),
    );
    expect(restamped(at("2026-12-04T10:00:07.000Z"), clock, "2026-12-04T10:00:05.000Z")).toEqual(
      at("2026-12-04T10:00:07.001Z"),
    );
    expect(restamped(at("2026-12-04T10:00:00.000Z"), clock, undefined)).toEqual(
      at("2026-12-04T10:00:00.001Z"),
    );
  });
});

describe("the stamp's bounds", () => {
  const clock = Date.parse("2026-12-04T10:00:00.000Z");
  it("restamped: never more than 5 minutes past the clock; none then", () => {
    expect(restamped(new Date(clock), clock, "2026-12-04T10:04:59.999Z")).toEqual(
      new Date("2026-12-04T10:05:00.000Z"),
    );
    expect(restamped(new Date(clock), clock, "2026-12-04T10:05:00.000Z")).toBeUndefined();
    expect(restamped(new Date(clock), clock, "2026-12-99T00:00:00.000Z")).toBeUndefined();
  });
  it("stampProblem and isStoredInstant: a real instant as stored, within 5 minutes of the clock", () => {
    expect(stampProblem(undefined, clock)).toBeUndefined();
    expect(stampProblem("2026-12-04T10:05:00.000Z", clock)).toBeUndefined();
    expect(stampProblem("2026-12-04T10:05:00.001Z", clock)).toBe(
      "its updatedAt 2026-12-04T10:05:00.001Z is more than 5 minutes after the clock (2026-12-04T10:00:00.000Z)",
    );
    expect(stampProblem("2026-12-99T00:00:00.000Z", clock)).toBe(
      'its updatedAt is not an instant ("2026-12-99T00:00:00.000Z")',
    );
    expect(stampProblem(5, clock)).toBe("its updatedAt is not an instant (5)");
    expect(isStoredInstant("2026-12-04T10:00:00.000Z")).toBe(true);
    expect(isStoredInstant("2026-12-04T10:00:00Z")).toBe(false);
    expect(isStoredInstant("2026-02-30T10:00:00.000Z")).toBe(
      Number.isFinite(Date.parse("2026-02-30T10:00:00.000Z")),
    );
  });
  it("keptStamp mends one more than 5 minutes ahead", () => {
    const now = new Date(clock);
    expect(keptStamp("2026-12-04T10:05:00.000Z", now)).toBe("2026-12-04T10:05:00.000Z");
    expect(keptStamp("2026-12-04T11:00:00.000Z", now)).toBe("2026-12-04T10:00:00.000Z");
  });
});

describe("keptStamp", () => {
  const now = new Date("2026-12-04T10:00:00.000Z");
  it("now, unless the profile's stamp is a later instant: a reader's stamp never moves back", () => {
    expect(keptStamp("2026-12-04T10:00:05.000Z", now)).toBe("2026-12-04T10:00:05.000Z");
    expect(keptStamp("2026-12-04T09:59:59.999Z", now)).toBe("2026-12-04T10:00:00.000Z");
    expect(keptStamp(undefined, now)).toBe("2026-12-04T10:00:00.000Z");
  });
  it("one that is no instant is mended to now", () => {
    expect(keptStamp("zzz", now)).toBe("2026-12-04T10:00:00.000Z");
    expect(keptStamp(Date.parse("2027-01-01T00:00:00.000Z"), now)).toBe("2026-12-04T10:00:00.000Z");
  });
});
