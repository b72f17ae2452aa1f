import type { Decoded } from "@rewards/core";
import type { SQSRecord } from "aws-lambda";

export interface WorkItem {
  record: SQSRecord;
  decoded: Decoded;
}

/** Items run in order within a lane; lanes run concurrently. */
export interface Lane {
  key: string;
  items: WorkItem[];
  /** FIFO: after a failure the rest of the lane is failed too, to keep the group's order. */
  stopOnFailure: boolean;
}

export function isFifoSource(records: readonly SQSRecord[]): boolean {
  return records.some((record) => record.eventSourceARN?.endsWith(".fifo"));
}

/**
 * Standard queues: one lane per user, so no two transactions of a batch touch the same
 * profile at once and repeats of an intent meet the guard in order (they become
 * `duplicate`, not a conflict). Messages to be parked touch no profile: a lane each.
 *
 * FIFO queues: one lane per MessageGroupId, in order, stopping at the first failure —
 * AWS's rule for partial batch responses on FIFO sources.
 */
export function planLanes(records: readonly SQSRecord[], decode: (body: string) => Decoded): Lane[] {
  const fifo = isFifoSource(records);
  const lanes = new Map<string, Lane>();
  for (const record of records) {
    const decoded = decode(record.body);
    const key = fifo
      ? `group:${record.attributes?.MessageGroupId ?? ""}`
      : decoded.ok
        ? `user:${decoded.award.userId}`
        : `park:${record.messageId}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = { key, items: [], stopOnFailure: fifo };
      lanes.set(key, lane);
    }
    lane.items.push({ record, decoded });
  }
  return [...lanes.values()];
}
