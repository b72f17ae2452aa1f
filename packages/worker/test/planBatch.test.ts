import { decodeEvent } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { completed, signup } from "../../../tests/support/events";
import { sqsRecord } from "../../../tests/support/lambdaEvents";
import { planLanes } from "../src";

const FIFO_ARN = "arn:aws:sqs:us-east-1:000000000000:rewards-events.fifo";
const lanesOf = (records: ReturnType<typeof sqsRecord>[]) =>
  planLanes(records, decodeEvent).map((lane) => ({
    key: lane.key,
    ids: lane.items.map((item) => item.record.messageId),
    stopOnFailure: lane.stopOnFailure,
  }));

describe("planLanes", () => {
  it("standard queue: one lane per user in arrival order, and one per message to park", () => {
    const records = [
      sqsRecord(completed("ann", "a"), { messageId: "1" }),
      sqsRecord(completed("bob", "a"), { messageId: "2" }),
      sqsRecord("{", { messageId: "3" }),
      sqsRecord(signup("ann"), { messageId: "4" }),
      sqsRecord(completed("ann", "a"), { messageId: "5" }),
      sqsRecord("[]", { messageId: "6" }),
    ];
    expect(lanesOf(records)).toEqual([
      { key: "user:ann", ids: ["1", "4", "5"], stopOnFailure: false },
      { key: "user:bob", ids: ["2"], stopOnFailure: false },
      { key: "park:3", ids: ["3"], stopOnFailure: false },
      { key: "park:6", ids: ["6"], stopOnFailure: false },
    ]);
  });

  it("FIFO queue: one lane per message group, in order, stopping at the first failure", () => {
    const records = [
      sqsRecord(completed("ann", "a"), { messageId: "1", groupId: "g1", queueArn: FIFO_ARN }),
      sqsRecord("{", { messageId: "2", groupId: "g2", queueArn: FIFO_ARN }),
      sqsRecord(completed("bob", "a"), { messageId: "3", groupId: "g1", queueArn: FIFO_ARN }),
    ];
    expect(lanesOf(records)).toEqual([
      { key: "group:g1", ids: ["1", "3"], stopOnFailure: true },
      { key: "group:g2", ids: ["2"], stopOnFailure: true },
    ]);
  });
});
