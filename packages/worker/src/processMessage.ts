import { AwardError, awardOnce, describeError, type ParkReason, parkReason } from "@rewards/core";
import type { MessageResult } from "./outcome";
import { parkMessage } from "./parkMessage";
import type { WorkItem } from "./planBatch";
import type { WorkerDeps } from "./workerDeps";

async function park(
  deps: WorkerDeps,
  item: WorkItem,
  reason: ParkReason,
  base: MessageResult,
): Promise<MessageResult> {
  try {
    await parkMessage(deps, item.record, reason, (deps.now ?? (() => new Date()))());
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
  deadline: number,
): Promise<MessageResult> {
  const { record, decoded } = item;
  const base: MessageResult = { messageId: record.messageId, outcome: "failed", attempts: 0 };
  if (!decoded.ok) return park(deps, item, decoded.park, base);

  const withKey = { ...base, intentKey: decoded.award.intentKey };
  let attempts = 1;
  try {
    const outcome = await awardOnce(
      {
        client: deps.dynamo,
        tableName: deps.tableName,
        now: deps.now,
        retryPolicy: deps.retryPolicy,
        retryHooks: { deadline, onRetry: () => attempts++ },
      },
      { ...decoded.award, messageId: record.messageId },
    );
    return { ...withKey, outcome, attempts };
  } catch (error) {
    if (error instanceof AwardError && error.kind === "permanent") {
      return park(deps, item, parkReason("rejected", describeError(error.cause)), { ...withKey, attempts });
    }
    return {
      ...withKey,
      attempts,
      outcome: "failed",
      cause: error instanceof AwardError ? "transient" : "unexpected",
      detail: describeError(error instanceof AwardError ? error.cause : error),
    };
  }
}
