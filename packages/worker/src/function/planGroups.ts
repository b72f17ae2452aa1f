import type { CompiledRules, Decoded } from "@rewards/core";
import type { SQSRecord } from "aws-lambda";

export interface WorkItem {
  record: SQSRecord;
  decoded: Decoded;
  /** The version that decoded it: the batch's, or the one an unknown type was judged again under. Unset: version 0. */
  rules?: CompiledRules | undefined;
}

/** Items run in order within a group; groups run concurrently (REWARDS_CONCURRENCY at once). */
export interface Group {
  key: string;
  items: WorkItem[];
  /** FIFO: after a failure the rest of the group is failed too, to keep its order. */
  stopOnFailure: boolean;
}

function isFifoSource(records: readonly SQSRecord[]): boolean {
  // One event source mapping reads one queue; should records ever mix, FIFO's stricter rules win.
  return records.some((record) => record.eventSourceARN.endsWith(".fifo"));
}

/**
 * Standard queues: one group per user, so no two transactions of a batch touch the same
 * profile at once and repeats of an intent meet the guard in order (they become
 * `duplicate`, not a conflict). Messages to be parked touch no profile: a group each.
 *
 * FIFO queues: one group per MessageGroupId, in order, stopping that group at its first
 * failure. AWS's guidance for FIFO partial batch responses is to stop the whole batch at the
 * first failure; stopping per group is our choice: it keeps each group's order (the only
 * order FIFO promises) while one stuck group does not hold back the others.
 */
export function planGroups(items: readonly WorkItem[]): Group[] {
  const fifo = isFifoSource(items.map((item) => item.record));
  const groups = new Map<string, Group>();
  for (const item of items) {
    const { record, decoded } = item;
    const key = fifo
      ? `fifo:${record.attributes.MessageGroupId}`
      : decoded.ok
        ? `user:${decoded.award.userId}`
        : `park:${record.messageId}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, items: [], stopOnFailure: fifo };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}
