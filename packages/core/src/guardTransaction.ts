import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Award } from "./award";
import { guardKey, profileKey } from "./intentKey";

export interface GuardTransactionContext {
  tableName: string;
  /** One instant for the whole transaction, so a retry with the same token is byte-identical. */
  now: Date;
  /** The SQS message that carried this emission, stored on the guard for audit. */
  messageId?: string | undefined;
}

const GUARD_CONDITION = "attribute_not_exists(pk) OR expiresAt < :now";
export const PROFILE_UPDATE = "ADD xp :amount, awards :one SET updatedAt = :now";

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/**
 * The one transaction (README, Architecture): the guard put first (its cancellation reason is index 0),
 * then the profile update. An expired guard still in the table counts as absent, so the
 * outcome never depends on when DynamoDB's TTL sweeper runs.
 */
export function planGuardTransaction(
  award: Award,
  context: GuardTransactionContext,
): TransactWriteCommandInput {
  const nowIso = context.now.toISOString();
  const nowEpoch = epochSeconds(context.now);
  const guard: Record<string, unknown> = {
    ...guardKey(award.intentKey),
    userId: award.userId,
    type: award.type,
    amount: award.amount,
    eventId: award.eventId,
    awardedAt: nowIso,
  };
  if (context.messageId !== undefined) guard.messageId = context.messageId;
  if (award.guardTtlSeconds !== undefined) guard.expiresAt = nowEpoch + award.guardTtlSeconds;
  return {
    TransactItems: [
      {
        Put: {
          TableName: context.tableName,
          Item: guard,
          ConditionExpression: GUARD_CONDITION,
          ExpressionAttributeValues: { ":now": nowEpoch },
          // A duplicate's cancellation reason then carries the guard it met: who paid and
          // when, so an award whose answer was lost can be recognised (no extra read).
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
      {
        Update: {
          TableName: context.tableName,
          Key: profileKey(award.userId),
          UpdateExpression: PROFILE_UPDATE,
          ExpressionAttributeValues: { ":amount": award.amount, ":one": 1, ":now": nowIso },
        },
      },
    ],
  };
}
