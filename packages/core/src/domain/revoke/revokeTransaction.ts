import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { PROFILE_STAMP_CONDITION } from "../award/awardPlan";
import type { StoredGuard } from "../table/storedGuard";
import { countAttribute, guardKey, profileKey, REVOKED_ATTRIBUTE } from "../table/tableLayout";

export interface RevokeContext {
  tableName: string;
  /** One instant: the guard's `revokedAt`, the profile's `updatedAt`, and "not expired" are judged at it. */
  now: Date;
  reason: string;
  /** Unique to this attempt (the transaction's ClientRequestToken): written as the guard's `revocationId`. */
  revocationId: string;
}

/**
 * The guard is marked only if it is still the award that was read: present, unexpired (as the
 * worker's put reads expiry: `expiresAt < :now` is expired), not revoked, same `awardedAt`
 * and `amount`. Anything else cancels the transaction, and the line is judged again.
 */
export const REVOKE_CONDITION =
  "attribute_exists(pk) AND (attribute_not_exists(expiresAt) OR expiresAt >= :nowEpoch) AND attribute_not_exists(revokedAt) AND awardedAt = :awardedAt AND amount = :amount";
export const REVOKE_GUARD_UPDATE =
  "SET revokedAt = :now, revokedReason = :reason, revocationId = :revocationId";
/**
 * The award's XP, its count and its type's count (`#count`: countAttribute(type)) taken back,
 * and one more revocation counted (`#revoked`: REVOKED_ATTRIBUTE).
 */
export const UNPAY_PROFILE_UPDATE =
  "ADD xp :minusAmount, awards :minusOne, #count :minusOne, #revoked :one SET updatedAt = :now";
/** The same for an award its guard says was never counted: its type's count is left as it is. */
export const UNPAY_UNCOUNTED_PROFILE_UPDATE =
  "ADD xp :minusAmount, awards :minusOne, #revoked :one SET updatedAt = :now";

/**
 * ONE transaction per award (docs/revoking.md#what-it-does-per-line) — the guard marked
 * (item 0, so its condition is reason 0) with the attempt's `revocationId`, then the user's
 * profile given back the award's XP, its count and — only when its guard says the award was
 * counted — its type's count, so a count never goes below the truth; and the profile's
 * revocations counted. Stamped after the profile's last change (PROFILE_STAMP_CONDITION; its
 * ALL_OLD says the stamp to go after), so the revocation sits on the reader's timeline where
 * it committed. The day total (docs/awards.md#the-daily-cap) is left alone: the cap
 * counts what was paid that day. Pure.
 */
export function planRevocation(guard: StoredGuard, context: RevokeContext): TransactWriteCommandInput {
  const nowIso = context.now.toISOString();
  return {
    TransactItems: [
      {
        Update: {
          TableName: context.tableName,
          Key: guardKey(guard.intentKey),
          UpdateExpression: REVOKE_GUARD_UPDATE,
          ConditionExpression: REVOKE_CONDITION,
          ExpressionAttributeValues: {
            ":now": nowIso,
            ":reason": context.reason,
            ":revocationId": context.revocationId,
            ":nowEpoch": Math.floor(context.now.getTime() / 1000),
            ":awardedAt": guard.awardedAt,
            ":amount": guard.amount,
          },
        },
      },
      {
        Update: {
          TableName: context.tableName,
          Key: profileKey(guard.userId),
          ...(guard.counted === true
            ? {
                UpdateExpression: UNPAY_PROFILE_UPDATE,
                ExpressionAttributeNames: {
                  "#count": countAttribute(guard.type),
                  "#revoked": REVOKED_ATTRIBUTE,
                },
              }
            : {
                UpdateExpression: UNPAY_UNCOUNTED_PROFILE_UPDATE,
                ExpressionAttributeNames: { "#revoked": REVOKED_ATTRIBUTE },
              }),
          ExpressionAttributeValues: {
            ":minusAmount": 0 - guard.amount,
            ":minusOne": -1,
            ":one": 1,
            ":now": nowIso,
          },
          ConditionExpression: PROFILE_STAMP_CONDITION,
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
  };
}
