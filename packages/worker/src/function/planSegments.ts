import type { AwardRequest, ParkReason } from "@rewards/core";
import type { WorkItem } from "./planGroups";

/** What the worker decided about one record before any write: park it, or award it. */
export type Triaged =
  | { kind: "park"; item: WorkItem; reason: ParkReason; intentKey?: string }
  | { kind: "award"; item: WorkItem; award: AwardRequest };

/** A piece of a group's work: one record to park, or awards written in one go (one user's). */
export type Segment =
  | { kind: "park"; record: Extract<Triaged, { kind: "park" }> }
  | { kind: "award"; records: Array<Extract<Triaged, { kind: "award" }>> };

/**
 * The order a group's records are handled in. Standard queues (a group is one user): every
 * award together, after nothing (parking touches no profile, so its place does not matter).
 * FIFO (a group is a MessageGroupId): records in order, and only a run of one user's
 * consecutive awards is written together, so the group's order holds for each record. Pure.
 */
export function planSegments(triaged: readonly Triaged[], fifo: boolean): Segment[] {
  const segments: Segment[] = [];
  let together: Extract<Segment, { kind: "award" }> | undefined;
  for (const each of triaged) {
    if (each.kind === "park") {
      segments.push({ kind: "park", record: each });
      if (fifo) together = undefined;
      continue;
    }
    const joins =
      together !== undefined && (!fifo || together.records[0]?.award.userId === each.award.userId);
    if (together && joins) together.records.push(each);
    else {
      together = { kind: "award", records: [each] };
      segments.push(together);
    }
  }
  return segments;
}
