import { describe, expect, it } from "vitest";
import { givenUpNotice } from "../src/streamFailures/givenUpNotice";
import { missingRecords } from "../src/streamFailures/replayStreamFailures";

const batch = {
  shardId: "shardId-1",
  startSequenceNumber: "100",
  endSequenceNumber: "104",
  batchSize: 2,
  streamArn: "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/s",
};
const REBUILD = "rebuild from the guards";

describe("a replay's count of a given-up batch (docs/local-stack.md)", () => {
  it("is whole when the read reached the range's end and the records the filter passes are its batchSize", () => {
    expect(missingRecords(batch, { handed: 2, inRange: 5 }, true, REBUILD)).toBeUndefined();
    expect(missingRecords(batch, { handed: 2, inRange: 2 }, true, REBUILD)).toBeUndefined();
  });

  it("counts only what the filter passes: every record of the range is not the batch", () => {
    expect(missingRecords({ ...batch, batchSize: 5 }, { handed: 2, inRange: 5 }, true, REBUILD)).toBe(
      "found 2 of the batch's 5 records between sequence numbers 100 and 104 (5 records read, 3 filtered out): 3 missing (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords(batch, { handed: 3, inRange: 3 }, true, REBUILD)).toBe(
      "found 3 of the batch's 2 records between sequence numbers 100 and 104: 1 more than it held (kept; run again later, or rebuild from the guards)",
    );
  });

  it("is never whole when the read stopped before the range's end", () => {
    expect(missingRecords(batch, { handed: 1, inRange: 1 }, false, REBUILD)).toBe(
      "found 1 of the batch's 2 records from sequence number 100; the stream ended before 104: 1 missing (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords(batch, { handed: 2, inRange: 2 }, false, REBUILD)).toBe(
      "found 2 of the batch's 2 records from sequence number 100; the stream ended before 104: its last record not reached (kept; run again later, or rebuild from the guards)",
    );
  });
});

describe("the line a stream function's run ends with when it gave batches up", () => {
  const history = {
    variable: "HISTORY_FAILURE_QUEUE_URL",
    failures: "rewards history failures",
    replay: "rewards history replay",
    pastTheStream: "rewrite their users' history with `rewards history rebuild --user <id>`",
  };

  it("none when nothing was given up", () => {
    expect(givenUpNotice(0, { ...history, set: true })).toBeUndefined();
    expect(givenUpNotice(0, { ...history, set: false })).toBeUndefined();
  });

  it("names the queue and the commands that list and replay them", () => {
    expect(givenUpNotice(1, { ...history, set: true })).toBe(
      "gave up 1 batch: its place in the stream is in HISTORY_FAILURE_QUEUE_URL; `rewards history failures` lists it, `rewards history replay` replays it from the stream (within its 24 hours)",
    );
    expect(givenUpNotice(3, { ...history, set: true })).toBe(
      "gave up 3 batches: their places in the stream are in HISTORY_FAILURE_QUEUE_URL; `rewards history failures` lists them, `rewards history replay` replays them from the stream (within its 24 hours)",
    );
  });

  it("without a failure queue, says they were discarded and what is left to do", () => {
    expect(givenUpNotice(2, { ...history, set: false })).toBe(
      "gave up 2 batches and discarded them: HISTORY_FAILURE_QUEUE_URL is not set, so nothing says where in the stream they are; rewrite their users' history with `rewards history rebuild --user <id>`",
    );
  });
});
