import {
  AwardError,
  awardOnce,
  type Deadline,
  describeError,
  judgeEventTime,
  type ParkReason,
  parkReason,
  rejectionReason,
} from "@rewards/core";
import type { MessageResult } from "./outcome";
import { parkMessage } from "./parkMessage";
import type { WorkItem } from "./planGroups";
import { queueTimesOf } from "./queueTimes";
import { clockOf, type WorkerDeps } from "./workerDeps";

async function park(
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

/** One message to one outcome. Never throws: every error becomes a result. */
export async function processMessage(
  deps: WorkerDeps,
  item: WorkItem,
  deadline: Deadline,
): Promise<MessageResult> {
  const { record, decoded } = item;
  const base: MessageResult = { messageId: record.messageId, outcome: "failed", attempts: 0 };
  if (!decoded.ok) return park(deps, item, decoded.park, base, deadline);

  const withKey = { ...base, intentKey: decoded.award.intentKey };
  // An event older than its rule's memory could meet no guard: it is never paid.
  const untimely = judgeEventTime(decoded.award, queueTimesOf(record), clockOf(deps)());
  if (untimely) return park(deps, item, untimely, withKey, deadline);
  try {
    const { outcome, attempts, note } = await awardOnce(
      {
        client: deps.dynamo,
        tableName: deps.tableName,
        clock: clockOf(deps),
        retry: { policy: deps.retryPolicy },
      },
      { ...decoded.award, messageId: record.messageId },
      deadline,
    );
    return { ...withKey, outcome, attempts, ...(note ? { detail: note } : {}) };
  } catch (error) {
    if (!(error instanceof AwardError)) {
      return { ...withKey, cause: "unexpected", detail: describeError(error) };
    }
    const withAttempts = { ...withKey, attempts: error.attempts };
    if (error.kind === "permanent") {
      const reason = rejectionReason(error.cause, decoded.award.userId);
      return park(deps, item, parkReason("rejected", reason), withAttempts, deadline);
    }
    const unknown = error.mayHaveCommitted
      ? "; an attempt's fate is unknown: if it committed, the redelivery is this message's own duplicate"
      : "";
    return {
      ...withAttempts,
      cause: error.kind === "configuration" ? "configuration" : "transient",
      detail: `${describeError(error.cause)}${unknown}`,
    };
  }
}
