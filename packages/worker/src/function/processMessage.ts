import { eventTimeOf, type ParkReason, parkReason, untimelyReason } from "@rewards/core";
import { type AwardOutcome, awardTogether, type Deadline, describeError } from "@rewards/core/aws";
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
    };
  }
}

/**
 * What a record can be before any write: unreadable or untimely (parked), or an award with
 * the UTC day its event counts toward under a daily cap. Pure given `now`.
 */
export function triage(item: WorkItem, now: number): Triaged {
  const { record, decoded } = item;
  if (!decoded.ok) return { kind: "park", item, reason: decoded.park };
  const times = queueTimesOf(record);
  // An event older than its rule's memory could meet no guard: it is never paid.
  const untimely = untimelyReason(decoded.award, times, now);
  if (untimely) return { kind: "park", item, reason: untimely, intentKey: decoded.award.intentKey };
  // One instant for both: the day the cap counts it toward is the day of the time the history shows.
  const eventTime = new Date(eventTimeOf(decoded.award.time, times, now).ms).toISOString();
  const earnedOn = eventTime.slice(0, 10);
  return {
    kind: "award",
    item,
    award: { ...decoded.award, messageId: record.messageId, earnedOn, eventTime },
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

/**
 * One user's awards, written together (docs/awards.md), to one
 * result each in the order given. Never throws: every error becomes a result.
 */
export async function awardTriaged(
  deps: WorkerDeps,
  triaged: ReadonlyArray<Extract<Triaged, { kind: "award" }>>,
  deadline: Deadline,
): Promise<MessageResult[]> {
  let outcomes: AwardOutcome[];
  try {
    outcomes = await awardTogether(
      {
        client: deps.dynamo,
        tableName: deps.tableName,
        clock: clockOf(deps),
        retry: { policy: deps.retryPolicy },
        dailyCap: deps.dailyCap,
      },
      triaged.map((each) => each.award),
      deadline,
    );
  } catch (error) {
    return triaged.map((each) => ({
      ...baseOf(each.item),
      intentKey: each.award.intentKey,
      cause: "unexpected",
      detail: describeError(error),
    }));
  }
  const results: MessageResult[] = [];
  // In order: parking a rejected award is one DLQ send each, and FIFO's order holds.
  for (const [index, each] of triaged.entries()) {
    results.push(await resultOf(deps, each, outcomes[index] as AwardOutcome, deadline));
  }
  return results;
}

async function resultOf(
  deps: WorkerDeps,
  triaged: Extract<Triaged, { kind: "award" }>,
  outcome: AwardOutcome,
  deadline: Deadline,
): Promise<MessageResult> {
  const base = { ...baseOf(triaged.item), intentKey: triaged.award.intentKey, attempts: outcome.attempts };
  const note = "note" in outcome && outcome.note !== undefined ? { detail: outcome.note } : {};
  switch (outcome.outcome) {
    case "awarded":
      return { ...base, outcome: "awarded", xp: outcome.xp, ...note };
    case "capped":
    case "duplicate":
      return { ...base, outcome: outcome.outcome, ...note };
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
      };
    }
  }
}
