import { campaignPay, eventTimeOf, type ParkReason, parkReason, untimelyReason } from "@rewards/core";
import {
  type AwardOptions,
  type AwardOutcome,
  awardTogether,
  callField,
  type Deadline,
  describeError,
} from "@rewards/core/aws";
import type { MessageResult } from "./outcome";
import { parkMessage } from "./parkMessage";
import type { WorkItem } from "./planGroups";
import type { Triaged } from "./planSegments";
import { queueTimesOf } from "./queueTimes";
import { refusalReason } from "./refusalReason";
import { clockOf, type WorkerDeps } from "./workerDeps";

const baseOf = (item: WorkItem): MessageResult => ({
  messageId: item.record.messageId,
  outcome: "failed",
  attempts: 0,
});

/** Copies the record to the DLQ; `failed` (redelivered, then redriven) when that is not possible. */
export async function park(
  deps: WorkerDeps,
  item: WorkItem,
  reason: ParkReason,
  base: MessageResult,
  deadline: Deadline,
): Promise<MessageResult> {
  try {
    await parkMessage(deps, item.record, reason, deadline);
    return { ...base, outcome: "parked", parkCode: reason.code, detail: reason.reason };
  } catch (error) {
    return {
      ...base,
      outcome: "failed",
      cause: "park_failed",
      parkCode: reason.code,
      detail: `${reason.code}: ${reason.reason}; not parked: ${describeError(error)}`,
      ...callField(error),
    };
  }
}

/**
 * What a record can be before any write: unreadable or untimely (parked), or an award with
 * the UTC day its event counts toward under a daily cap, and what its version's campaigns
 * make it pay on its event time (docs/rules.md#campaigns). Pure given `now`.
 */
export function triage(item: WorkItem, now: number): Triaged {
  const { record, decoded } = item;
  if (!decoded.ok) return { kind: "park", item, reason: decoded.park };
  const times = queueTimesOf(record);
  // An event older than its rule's memory could meet no guard: it is never paid.
  const untimely = untimelyReason(decoded.award, times, now);
  if (untimely) return { kind: "park", item, reason: untimely, intentKey: decoded.award.intentKey };
  // One instant for all three: the day the cap counts it toward and the campaign that pays it
  // are those of the time the history shows.
  const eventMs = eventTimeOf(decoded.award.time, times, now).ms;
  const eventTime = new Date(eventMs).toISOString();
  const earnedOn = eventTime.slice(0, 10);
  const pay = campaignPay(item.rules?.campaigns ?? [], decoded.award.type, eventMs, decoded.award.amount);
  return {
    kind: "award",
    item,
    award: {
      ...decoded.award,
      amount: pay.xp,
      ...(pay.campaign === undefined ? {} : { campaign: pay.campaign }),
      messageId: record.messageId,
      earnedOn,
      eventTime,
    },
  };
}

/** Parks a record triaged as unfit. Never throws. */
export function parkTriaged(
  deps: WorkerDeps,
  triaged: Extract<Triaged, { kind: "park" }>,
  deadline: Deadline,
): Promise<MessageResult> {
  const base = baseOf(triaged.item);
  const withKey = triaged.intentKey === undefined ? base : { ...base, intentKey: triaged.intentKey };
  return park(deps, triaged.item, triaged.reason, withKey, deadline);
}

type AwardTriaged = Extract<Triaged, { kind: "award" }>;

/** What the worker knows of one award: core's outcome, or an error nothing classified. */
type Settled = AwardOutcome | { outcome: "unexpected"; attempts: number; cause: unknown };

/**
 * One user's awards, written together (docs/awards.md), to one result each in the order given.
 * In order (FIFO, docs/awards.md#one-transaction-per-user): the first record that ends
 * `failed` — a transient failure, a park that failed — fails every later one as
 * `fifo_blocked`, whatever the transaction did for it, before any of them is parked; core
 * writes nothing after an award that may still fail (`held`), and the held ones are sent once
 * the records before them are settled. Never throws.
 */
export async function awardTriaged(
  deps: WorkerDeps,
  triaged: readonly AwardTriaged[],
  deadline: Deadline,
  inOrder = false,
): Promise<MessageResult[]> {
  const now = clockOf(deps)();
  const settled: Settled[] = triaged.map(() => ({ outcome: "held", attempts: 0 }));
  const results: MessageResult[] = [];
  let blocked = false;
  for (const [index, each] of triaged.entries()) {
    if (!blocked && settled[index]?.outcome === "held") {
      const waiting = heldFrom(settled, index);
      const outcomes = await settle(
        deps,
        waiting.map((at) => (triaged[at] as AwardTriaged).award),
        deadline,
        {
          inOrder,
          now,
        },
      );
      waiting.forEach((at, got) => {
        settled[at] = sumAttempts(settled[at] as Settled, outcomes[got] as Settled);
      });
    }
    const outcome = settled[index] as Settled;
    // In order: parking a rejected award is one DLQ send each, and FIFO's order holds.
    const result: MessageResult = blocked
      ? blockedResult(each, outcome.attempts)
      : await resultOf(deps, each, outcome, deadline);
    results.push(result);
    blocked = inOrder && result.outcome === "failed";
  }
  return results;
}

/** The positions from `from` on that are still `held` (not yet written). Pure. */
export function heldFrom(settled: ReadonlyArray<{ outcome: string }>, from: number): number[] {
  const held: number[] = [];
  for (let at = from; at < settled.length; at++) if (settled[at]?.outcome === "held") held.push(at);
  return held;
}

/** A held award's new outcome, counting the transactions that held it before. Pure. */
export function sumAttempts(before: Settled, after: Settled): Settled {
  return { ...after, attempts: before.attempts + after.attempts };
}

async function settle(
  deps: WorkerDeps,
  awards: AwardTriaged["award"][],
  deadline: Deadline,
  options: AwardOptions,
): Promise<Settled[]> {
  try {
    return await awardTogether(
      {
        client: deps.dynamo,
        tableName: deps.tableName,
        clock: clockOf(deps),
        retry: { policy: deps.retryPolicy },
        dailyCap: deps.dailyCap,
      },
      awards,
      deadline,
      options,
    );
  } catch (error) {
    return awards.map(() => ({ outcome: "unexpected", attempts: 0, cause: error }));
  }
}

/** A record after a failed one of its FIFO group: failed, whatever was decided for it. */
function blockedResult(triaged: AwardTriaged, attempts: number): MessageResult {
  return {
    ...baseOf(triaged.item),
    intentKey: triaged.award.intentKey,
    attempts,
    cause: "fifo_blocked",
  };
}

async function resultOf(
  deps: WorkerDeps,
  triaged: AwardTriaged,
  outcome: Settled,
  deadline: Deadline,
): Promise<MessageResult> {
  const base = { ...baseOf(triaged.item), intentKey: triaged.award.intentKey, attempts: outcome.attempts };
  const note = "note" in outcome && outcome.note !== undefined ? { detail: outcome.note } : {};
  switch (outcome.outcome) {
    case "held":
      // Only after a failed record of its group: held, never sent.
      return blockedResult(triaged, outcome.attempts);
    case "unexpected":
      return {
        ...base,
        cause: "unexpected",
        detail: describeError(outcome.cause),
        ...callField(outcome.cause),
      };
    case "awarded":
      return { ...base, outcome: "awarded", xp: outcome.xp, ...note };
    case "capped":
      return { ...base, outcome: outcome.outcome, ...note };
    case "duplicate": {
      const units = outcome.paidUnits === undefined ? {} : { paidUnits: outcome.paidUnits };
      return { ...base, outcome: outcome.outcome, ...note, ...units };
    }
    case "rejected":
      return park(
        deps,
        triaged.item,
        parkReason("rejected", refusalReason(outcome.refused, outcome.cause, triaged.award.userId)),
        base,
        deadline,
      );
    case "failed": {
      const unknown = outcome.mayHaveCommitted
        ? "; an attempt's fate is unknown: if it committed, the redelivery is this message's own duplicate"
        : "";
      return {
        ...base,
        cause: outcome.kind,
        detail: `${describeError(outcome.cause)}${unknown}`,
        ...callField(outcome.cause),
      };
    }
  }
}
