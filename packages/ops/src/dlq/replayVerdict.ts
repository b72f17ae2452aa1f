import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  type AwardRequest,
  campaignPay,
  compileVersion,
  dayOfKey,
  dayTotalKey,
  decodeEvent,
  eventTimeOf,
  guardKey,
  intentKeyOfGuard,
  type ParkedMessage,
  payable,
  untimelyReason,
  userOfKey,
} from "@rewards/core";
import { batchGetAll } from "../batchGetAll";
import { currentRulesOrFail } from "../rules/rulesVersions";

/**
 * What replaying a parked message would do now: `pay` (no live guard for its intent), `paid`
 * (its intent's guard is present and unexpired: a duplicate), `revoked` (paid, then revoked,
 * docs/revoking.md: its guard is live, so also a duplicate that pays nothing), `stale` (older than its rule's
 * memory), `invalid` (it would be parked again: bad JSON, schema, type, or a time too far ahead).
 */
export type ReplayVerdict = "pay" | "pay_part" | "capped" | "paid" | "revoked" | "stale" | "invalid";

/**
 * With a daily cap (REWARDS_DAILY_XP_CAP set where the command runs, as for the worker), a
 * message that would pay is judged against its day's total too: `pay_part` (the cap cuts it)
 * or `capped` (it would pay 0, its intent spent).
 */
export const VERDICT_WORDS: Record<ReplayVerdict, string> = {
  pay: "would pay",
  pay_part: "would pay part (cap)",
  capped: "capped (would pay 0)",
  paid: "already paid",
  revoked: "already paid (revoked)",
  stale: "stale",
  invalid: "invalid",
};

/** One message's verdict in words: `would pay 10 of 20 (cap)` for one the cap cuts. */
export function verdictWords(judged: MessageVerdict): string {
  if (judged.verdict === "pay_part") return `would pay ${judged.xp} of ${judged.requested} (cap)`;
  return VERDICT_WORDS[judged.verdict];
}

export interface MessageVerdict {
  verdict: ReplayVerdict;
  /** The intent key, when the body decodes. */
  intentKey?: string;
  /** Why, for the three that do not pay. */
  reason?: string;
  /** Under a cap, for `pay_part` and `capped`: what it would pay of what its rule asks. */
  xp?: number;
  requested?: number;
}

/** What judging reads: the table (guards, day totals), the clock (epoch ms), and the cap if one is set. */
export interface VerdictContext {
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  now: number;
  dailyCap?: number | undefined;
}

/**
 * Judges parked messages as the worker would if they were replayed now: the same decoding,
 * the same time rules (with the `rewards.firstSentAt` replay would send), and the intent's
 * guard read consistently (100 keys per BatchGet). `now` is epoch ms.
 */
export async function replayVerdictOf(
  parked: readonly ParkedMessage[],
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  now: number,
  dailyCap?: number,
): Promise<Map<string, MessageVerdict>> {
  const judged = new Map<string, MessageVerdict>();
  const toRead = new Map<string, string[]>();
  const candidates: Array<{ messageId: string; award: AwardRequest }> = [];
  // The version the worker would judge a replay by: a type published since it was parked pays.
  const rules = compileVersion(await currentRulesOrFail(dynamo, tableName));
  for (const message of parked) {
    const decoded = decodeEvent(message.body, rules);
    if (!decoded.ok) {
      judged.set(message.messageId, { verdict: "invalid", reason: decoded.park.reason });
      continue;
    }
    const { intentKey } = decoded.award;
    const times = { firstSentAt: message.firstSentAt };
    const untimely = untimelyReason(decoded.award, times, now);
    if (untimely) {
      judged.set(message.messageId, {
        verdict: untimely.code === "stale" ? "stale" : "invalid",
        intentKey,
        reason: untimely.reason,
      });
      continue;
    }
    toRead.set(intentKey, [...(toRead.get(intentKey) ?? []), message.messageId]);
    const eventMs = eventTimeOf(decoded.award.time, times, now).ms;
    const earnedOn = new Date(eventMs).toISOString().slice(0, 10);
    const amount = campaignPay(rules.campaigns, decoded.award.type, eventMs, decoded.award.amount).xp;
    candidates.push({ messageId: message.messageId, award: { ...decoded.award, amount, earnedOn } });
  }
  const live = await liveGuards(dynamo, tableName, [...toRead.keys()], now);
  for (const [intentKey, messageIds] of toRead) {
    const guard = live.get(intentKey);
    const verdict: ReplayVerdict = guard === undefined ? "pay" : guard.revoked ? "revoked" : "paid";
    for (const messageId of messageIds) judged.set(messageId, { verdict, intentKey });
  }
  if (dailyCap !== undefined) {
    const paying = candidates.filter(({ messageId }) => judged.get(messageId)?.verdict === "pay");
    await applyDailyCap(paying, dynamo, tableName, now, dailyCap, judged);
  }
  return judged;
}

/**
 * What the cap leaves each paying message, as the worker would pay them now in this order:
 * each user's day totals read (consistently), then the rule's XP cut to what is left.
 */
async function applyDailyCap(
  paying: ReadonlyArray<{ messageId: string; award: AwardRequest }>,
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  now: number,
  dailyCap: number,
  judged: Map<string, MessageVerdict>,
): Promise<void> {
  const byUser = new Map<string, Array<{ messageId: string; award: AwardRequest }>>();
  for (const each of paying) byUser.set(each.award.userId, [...(byUser.get(each.award.userId) ?? []), each]);
  const days = [...new Set(paying.map(({ award }) => `${award.userId}\n${award.earnedOn}`))];
  const totals = await dayTotals(dynamo, tableName, days);
  for (const [userId, awards] of byUser) {
    const userTotals = new Map(
      awards.map(({ award }) => [award.earnedOn as string, totals.get(`${userId}\n${award.earnedOn}`) ?? 0]),
    );
    const paid = payable(
      awards.map(({ award }) => award),
      { now: new Date(now), dailyCap, dayTotals: userTotals },
    );
    awards.forEach(({ messageId, award }, index) => {
      const xp = paid[index] as number;
      if (xp === award.amount) return;
      const base = judged.get(messageId) as MessageVerdict;
      judged.set(messageId, {
        ...base,
        verdict: xp === 0 ? "capped" : "pay_part",
        xp,
        requested: award.amount,
      });
    });
  }
}

/** The day totals of `keys` (`userId\nday`), 100 per BatchGet; absent ones are 0. */
async function dayTotals(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const dayKeys = keys.map((key) => {
    const [userId, day] = key.split("\n") as [string, string];
    return dayTotalKey(userId, day);
  });
  const totals = new Map<string, number>();
  for (const item of await batchGetAll(dynamo, tableName, dayKeys, "day totals")) {
    const userId = userOfKey(item.pk);
    const day = dayOfKey(item.sk);
    if (userId !== undefined && day !== undefined && typeof item.xp === "number")
      totals.set(`${userId}\n${day}`, item.xp);
  }
  return totals;
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
  const guards = await batchGetAll(
    dynamo,
    tableName,
    keys.map((key) => guardKey(key)),
    "guards",
  );
  for (const item of guards) {
    const expiresAt = item.expiresAt;
    if (typeof expiresAt !== "number" || expiresAt >= nowSeconds)
      live.set(intentKeyOfGuard(String(item.pk)), { revoked: item.revokedAt !== undefined });
  }
  return live;
}

export type VerdictCounts = Record<Exclude<ReplayVerdict, "pay_part" | "capped">, number> &
  Partial<Record<"pay_part" | "capped", number>>;

/** Per verdict; `pay_part` and `capped` only under a cap (`capped` true), where they can happen. */
export function tallyVerdicts(judged: Iterable<MessageVerdict>, capped = false): VerdictCounts {
  const counts: Record<ReplayVerdict, number> = {
    pay: 0,
    ...(capped ? { pay_part: 0, capped: 0 } : {}),
    paid: 0,
    revoked: 0,
    stale: 0,
    invalid: 0,
  } as Record<ReplayVerdict, number>;
  for (const { verdict } of judged) counts[verdict] = (counts[verdict] ?? 0) + 1;
  return counts;
}

/** The counts a person reads: `already paid (revoked)` and the cap's two only when there is one. */
export function shownVerdicts(counts: VerdictCounts): Array<[ReplayVerdict, number]> {
  const rare = new Set<ReplayVerdict>(["revoked", "pay_part", "capped"]);
  return (Object.entries(counts) as Array<[ReplayVerdict, number]>).filter(
    ([verdict, n]) => !rare.has(verdict) || n > 0,
  );
}
