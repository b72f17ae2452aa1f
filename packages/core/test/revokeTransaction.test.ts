import { freshModule } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { planRevocation, readGuard, type StoredGuard } from "../src/domain";

const now = new Date("2026-12-01T12:00:00.999Z");
const epoch = 1_796_126_400;

function guard(overrides: Partial<StoredGuard> = {}): StoredGuard {
  const read = readGuard({
    pk: "IDEM#user123#idempotent-writes#article.completed",
    sk: "IDEM",
    userId: "user123",
    type: "article.completed",
    amount: 20,
    eventId: "evt-01JDX3",
    awardedAt: "2026-11-29T10:00:01.234Z",
    expiresAt: epoch + 86_400,
    counted: true,
  });
  if (!read.ok) throw new Error(read.reason);
  return { ...read.guard, ...overrides };
}

describe("planRevocation", () => {
  it("marks the guard on the condition that it is still the award read, then gives the profile back its XP, its count and its type's count", async () => {
    // Loaded afresh (@rewards/testing freshModule): its expressions are module-level constants.
    const fresh = await freshModule(() => import("../src/domain/revoke/revokeTransaction"));
    expect(
      fresh.planRevocation(guard(), {
        tableName: "t",
        now,
        reason: "producer bug",
        revocationId: "attempt-1",
      }),
    ).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: "t",
            Key: { pk: "IDEM#user123#idempotent-writes#article.completed", sk: "IDEM" },
            UpdateExpression: "SET revokedAt = :now, revokedReason = :reason, revocationId = :revocationId",
            ConditionExpression:
              "attribute_exists(pk) AND (attribute_not_exists(expiresAt) OR expiresAt >= :nowEpoch) AND attribute_not_exists(revokedAt) AND awardedAt = :awardedAt AND amount = :amount",
            ExpressionAttributeValues: {
              ":now": "2026-12-01T12:00:00.999Z",
              ":reason": "producer bug",
              ":revocationId": "attempt-1",
              ":nowEpoch": epoch,
              ":awardedAt": "2026-11-29T10:00:01.234Z",
              ":amount": 20,
            },
          },
        },
        {
          Update: {
            TableName: "t",
            Key: { pk: "USER#user123", sk: "PROFILE" },
            UpdateExpression:
              "ADD xp :minusAmount, awards :minusOne, #count :minusOne, #revoked :one SET updatedAt = :now",
            ExpressionAttributeNames: { "#count": "count:article.completed", "#revoked": "revoked" },
            ExpressionAttributeValues: {
              ":minusAmount": -20,
              ":minusOne": -1,
              ":one": 1,
              ":now": "2026-12-01T12:00:00.999Z",
            },
            // Stamped after the profile's last change, or refused with the profile to go after.
            ConditionExpression: "attribute_not_exists(updatedAt) OR updatedAt < :now",
            ReturnValuesOnConditionCheckFailure: "ALL_OLD",
          },
        },
      ],
    });
  });

  it("touches exactly the guard and the profile: never the day total, whatever the award", () => {
    const plan = planRevocation(guard({ amount: 0, requested: 20 }), {
      tableName: "t",
      now,
      reason: "r",
      revocationId: "a",
    });
    expect(plan.TransactItems?.map((item) => item.Update?.Key)).toEqual([
      { pk: "IDEM#user123#idempotent-writes#article.completed", sk: "IDEM" },
      { pk: "USER#user123", sk: "PROFILE" },
    ]);
    // A capped-to-zero award revoked takes back no XP (and its count).
    expect(plan.TransactItems?.[1]?.Update?.ExpressionAttributeValues).toEqual({
      ":minusAmount": 0,
      ":minusOne": -1,
      ":one": 1,
      ":now": "2026-12-01T12:00:00.999Z",
    });
    expect(Object.is(plan.TransactItems?.[1]?.Update?.ExpressionAttributeValues?.[":minusAmount"], 0)).toBe(
      true,
    );
    expect(plan.TransactItems?.[0]?.Update?.ExpressionAttributeValues?.[":amount"]).toBe(0);
  });

  it("takes the award off its own type's count, whatever the type", () => {
    for (const type of ["article.shared", "streak.day", "signup.completed"]) {
      const profile = planRevocation(guard({ type }), {
        tableName: "t",
        now,
        reason: "r",
        revocationId: "a",
      }).TransactItems?.[1]?.Update;
      expect(profile?.ExpressionAttributeNames).toStrictEqual({
        "#count": `count:${type}`,
        "#revoked": "revoked",
      });
      expect(profile?.UpdateExpression).toBe(
        "ADD xp :minusAmount, awards :minusOne, #count :minusOne, #revoked :one SET updatedAt = :now",
      );
      expect(profile?.ExpressionAttributeValues?.[":minusOne"]).toBe(-1);
    }
  });

  it("leaves the count of an award its guard does not say was counted (paid before counts were kept)", () => {
    for (const counted of [undefined, false]) {
      const profile = planRevocation(guard({ counted }), {
        tableName: "t",
        now,
        reason: "r",
        revocationId: "a",
      }).TransactItems?.[1]?.Update;
      expect(profile?.UpdateExpression).toBe(
        "ADD xp :minusAmount, awards :minusOne, #revoked :one SET updatedAt = :now",
      );
      expect(profile?.ExpressionAttributeNames).toStrictEqual({ "#revoked": "revoked" });
      expect(profile?.ExpressionAttributeValues).toStrictEqual({
        ":minusAmount": -20,
        ":minusOne": -1,
        ":one": 1,
        ":now": "2026-12-01T12:00:00.999Z",
      });
    }
  });

  it("keys the guard by the intent key read (escaped and hashed keys alike)", () => {
    const plan = planRevocation(guard({ intentKey: "sha256:abc", userId: "u#1" }), {
      tableName: "other",
      now,
      reason: "r",
      revocationId: "a",
    });
    expect(plan.TransactItems?.map((item) => [item.Update?.TableName, item.Update?.Key])).toEqual([
      ["other", { pk: "IDEM#sha256:abc", sk: "IDEM" }],
      ["other", { pk: "USER#u#1", sk: "PROFILE" }],
    ]);
  });
});
