import { decodeEvent } from "@rewards/core";
import { completed, signup, sqsRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { planGroups } from "../src/function/planGroups";

const FIFO_ARN = "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo";
const groupsOf = (records: ReturnType<typeof sqsRecord>[]) =>
  planGroups(records.map((record) => ({ record, decoded: decodeEvent(record.body) }))).map((group) => ({
    key: group.key,
    ids: group.items.map((item) => item.record.messageId),
    stopOnFailure: group.stopOnFailure,
  }));

describe("planGroups", () => {
  it("standard queue: one group per user in arrival order, and one per message to park", () => {
    const records = [
      sqsRecord(completed("ann", "a"), { messageId: "1" }),
      sqsRecord(completed("bob", "a"), { messageId: "2" }),
      sqsRecord("{", { messageId: "3" }),
      sqsRecord(signup("ann"), { messageId: "4" }),
      sqsRecord(completed("ann", "a"), { messageId: "5" }),
      sqsRecord("[]", { messageId: "6" }),
    ];
    expect(groupsOf(records)).toEqual([
      { key: "user:ann", ids: ["1", "4", "5"], stopOnFailure: false },
      { key: "user:bob", ids: ["2"], stopOnFailure: false },
      { key: "park:3", ids: ["3"], stopOnFailure: false },
      { key: "park:6", ids: ["6"], stopOnFailure: false },
    ]);
  });

  it("FIFO queue: one group per message group, in order, stopping at the first failure", () => {
    const records = [
      sqsRecord(completed("ann", "a"), { messageId: "1", groupId: "g1", queueArn: FIFO_ARN }),
      sqsRecord("{", { messageId: "2", groupId: "g2", queueArn: FIFO_ARN }),
      sqsRecord(completed("bob", "a"), { messageId: "3", groupId: "g1", queueArn: FIFO_ARN }),
    ];
    expect(groupsOf(records)).toEqual([
      { key: "fifo:g1", ids: ["1", "3"], stopOnFailure: true },
      { key: "fifo:g2", ids: ["2"], stopOnFailure: true },
    ]);
  });

  it("a batch with any FIFO record follows FIFO's rules (one event source reads one queue)", () => {
    const records = [
      sqsRecord(completed("ann", "a"), { messageId: "1" }),
      sqsRecord(completed("bob", "a"), { messageId: "2", groupId: "g", queueArn: FIFO_ARN }),
    ];
    expect(groupsOf(records).map((g) => g.stopOnFailure)).toEqual([true, true]);
  });
});
