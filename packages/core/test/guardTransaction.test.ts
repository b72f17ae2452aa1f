import { describe, expect, it } from "vitest";
import { type Award, planGuardTransaction } from "../src";

const now = new Date("2026-11-29T10:00:00.000Z");
const epoch = 1_795_946_400;
const award: Award = {
  intentKey: "user123#idempotent-writes#article.completed",
  userId: "user123",
  type: "article.completed",
  amount: 20,
  eventId: "evt-01JDX3",
  guardTtlSeconds: 90 * 86_400,
};

describe("planGuardTransaction", () => {
  it("puts the guard first, conditionally, then updates the profile", () => {
    expect(planGuardTransaction(award, { tableName: "t", now, messageId: "m-1" })).toEqual({
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
              eventId: "evt-01JDX3",
              messageId: "m-1",
              awardedAt: "2026-11-29T10:00:00.000Z",
              expiresAt: epoch + 90 * 86_400,
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
            UpdateExpression: "ADD xp :amount, awards :one SET updatedAt = :now",
            ExpressionAttributeValues: { ":amount": 20, ":one": 1, ":now": "2026-11-29T10:00:00.000Z" },
          },
        },
      ],
    });
  });

  it("a guard kept forever has no expiresAt", () => {
    const signup: Award = { ...award, type: "signup.completed", amount: 100, guardTtlSeconds: undefined };
    const guard = (a: Award) =>
      planGuardTransaction(a, { tableName: "t", now }).TransactItems?.[0]?.Put?.Item;
    expect(guard(signup)).not.toHaveProperty("expiresAt");
    expect(guard(signup)).not.toHaveProperty("messageId");
    expect(guard(award)?.expiresAt).toBe(epoch + 90 * 86_400);
  });
});
