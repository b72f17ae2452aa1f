import { BatchGetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  classifyError,
  decodeEvent,
  guardKey,
  judgeEventTime,
  type ParkedMessage,
  retryRemainder,
} from "@rewards/core";

/**
 * What replaying a parked message would do now: `pay` (no live guard for its intent), `paid`
 * (its intent's guard is present and unexpired: a duplicate), `revoked` (paid, then revoked,
 * §11: its guard is live, so also a duplicate that pays nothing), `stale` (older than its rule's
 * memory), `invalid` (it would be parked again: bad JSON, schema, type, or a time too far ahead).
 */
export type ReplayVerdict = "pay" | "paid" | "revoked" | "stale" | "invalid";

export const VERDICT_WORDS: Record<ReplayVerdict, string> = {
  pay: "would pay",
  paid: "already paid",
  revoked: "already paid (revoked)",
  stale: "stale",
  invalid: "invalid",
};

export interface Judged {
  verdict: ReplayVerdict;
  /** The intent key, when the body decodes. */
  intentKey?: string;
  /** Why, for the three that do not pay. */
  reason?: string;
}

/**
 * Judges parked messages as the worker would if they were replayed now: the same decoding,
 * the same time rules (with the `rewards.firstSentAt` replay would send), and the intent's
 * guard read consistently (100 keys per BatchGet). `now` is epoch ms.
 */
export async function judgeParked(
  parked: readonly ParkedMessage[],
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  now: number,
): Promise<Map<string, Judged>> {
  const judged = new Map<string, Judged>();
  const toRead = new Map<string, string[]>();
  for (const message of parked) {
    const decoded = decodeEvent(message.body);
    if (!decoded.ok) {
      judged.set(message.messageId, { verdict: "invalid", reason: decoded.park.reason });
      continue;
    }
    const { intentKey } = decoded.award;
    const untimely = judgeEventTime(decoded.award, { firstSentAt: message.firstSentAt }, now);
    if (untimely) {
      judged.set(message.messageId, {
        verdict: untimely.code === "stale" ? "stale" : "invalid",
        intentKey,
        reason: untimely.reason,
      });
      continue;
    }
    toRead.set(intentKey, [...(toRead.get(intentKey) ?? []), message.messageId]);
  }
  const live = await liveGuards(dynamo, tableName, [...toRead.keys()], now);
  for (const [intentKey, messageIds] of toRead) {
    const guard = live.get(intentKey);
    const verdict: ReplayVerdict = guard === undefined ? "pay" : guard.revoked ? "revoked" : "paid";
    for (const messageId of messageIds) judged.set(messageId, { verdict, intentKey });
  }
  return judged;
}

/** The intents among `keys` whose guard is in the table and unexpired (as the guard's condition reads it), and whether it is revoked. */
async function liveGuards(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly string[],
  now: number,
): Promise<Map<string, { revoked: boolean }>> {
  const live = new Map<string, { revoked: boolean }>();
  const nowSeconds = Math.floor(now / 1000);
  for (let start = 0; start < keys.length; start += 100) {
    const { remainder, error } = await retryRemainder(
      keys.slice(start, start + 100).map((key) => guardKey(key)),
      async (pending) => {
        const { Responses, UnprocessedKeys } = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of Responses?.[tableName] ?? []) {
          const expiresAt = item.expiresAt;
          if (typeof expiresAt !== "number" || expiresAt >= nowSeconds)
            live.set(String(item.pk).slice("IDEM#".length), { revoked: item.revokedAt !== undefined });
        }
        return (UnprocessedKeys?.[tableName]?.Keys ?? []) as typeof pending;
      },
      { shouldRetry: (failure) => classifyError(failure) === "transient" },
    );
    if (remainder.length > 0) throw error;
  }
  return live;
}

export function tallyVerdicts(judged: Iterable<Judged>): Record<ReplayVerdict, number> {
  const counts: Record<ReplayVerdict, number> = { pay: 0, paid: 0, revoked: 0, stale: 0, invalid: 0 };
  for (const { verdict } of judged) counts[verdict]++;
  return counts;
}

/** The counts a person reads: `already paid (revoked)` only when there is one. */
export function shownVerdicts(counts: Record<ReplayVerdict, number>): Array<[ReplayVerdict, number]> {
  return (Object.entries(counts) as Array<[ReplayVerdict, number]>).filter(
    ([verdict, n]) => verdict !== "revoked" || n > 0,
  );
}
