import { describe, expect, it } from "vitest";
import type { BatchReplay } from "../src/streamFailures/batchReplay";
import { missingRecords } from "../src/streamFailures/missingRecords";
import { outcomeText, replayInWords } from "../src/streamFailures/replayInWords";
import { replayFailed, replayTally } from "../src/streamFailures/replayTally";

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

  it("is whole too when its batchSize counts every record of the range, the filtered ones included", () => {
    expect(
      missingRecords({ ...batch, batchSize: 5 }, { handed: 2, inRange: 5 }, true, REBUILD),
    ).toBeUndefined();
  });

  it("is short when neither count is its batchSize, and gives both", () => {
    expect(missingRecords({ ...batch, batchSize: 5 }, { handed: 2, inRange: 4 }, true, REBUILD)).toBe(
      "found 2 of the batch's 5 records between sequence numbers 100 and 104 (4 records read, 2 filtered out): 3 missing, or 1 missing counting every record read (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords({ ...batch, batchSize: 3 }, { handed: 2, inRange: 4 }, true, REBUILD)).toBe(
      "found 2 of the batch's 3 records between sequence numbers 100 and 104 (4 records read, 2 filtered out): 1 missing, or 1 more than it held counting every record read (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords(batch, { handed: 3, inRange: 3 }, true, REBUILD)).toBe(
      "found 3 of the batch's 2 records between sequence numbers 100 and 104: 1 more than it held (kept; run again later, or rebuild from the guards)",
    );
  });

  it("is never whole when the read stopped before the range's end, whichever count matches", () => {
    expect(missingRecords(batch, { handed: 1, inRange: 1 }, false, REBUILD)).toBe(
      "found 1 of the batch's 2 records from sequence number 100; the stream ended before 104: 1 missing (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords(batch, { handed: 2, inRange: 2 }, false, REBUILD)).toBe(
      "found 2 of the batch's 2 records from sequence number 100; the stream ended before 104: its last record not reached (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords({ ...batch, batchSize: 3 }, { handed: 1, inRange: 3 }, false, REBUILD)).toBe(
      "found 1 of the batch's 3 records from sequence number 100; the stream ended before 104: 2 missing (kept; run again later, or rebuild from the guards)",
    );
    expect(missingRecords(batch, { handed: 3, inRange: 3 }, false, REBUILD)).toBe(
      "found 3 of the batch's 2 records from sequence number 100; the stream ended before 104: 1 more than it held (kept; run again later, or rebuild from the guards)",
    );
  });
});

describe("a replay's report", () => {
  const history = {
    done: "written",
    replayed: "written",
    wouldReplay: "would write",
    notAllDone: "not all written",
  };
  const result = (outcome: BatchReplay["outcome"], handed = 0, done = 0): BatchReplay => ({
    messageId: `m-${outcome}`,
    handed,
    done,
    outcome,
  });

  it("says a result in the function's words: its count of records done under its own name", () => {
    expect(replayInWords({ ...result("replayed", 2, 2), from: "1", to: "3" }, history)).toEqual({
      messageId: "m-replayed",
      from: "1",
      to: "3",
      awards: 2,
      written: 2,
      outcome: "written",
    });
    expect(replayInWords(result("would discard"), history).outcome).toBe("would discard");
    expect(outcomeText("not all done", history)).toBe("not all written (kept)");
    expect(outcomeText("gone", history)).toBe("no longer in the stream (kept)");
    expect(outcomeText("discarded", history)).toBe("discarded (printed above)");
  });

  it("counts a discarded record as neither replayed nor kept, and a kept one as a failure unless a dry run", () => {
    const tally = replayTally([
      result("replayed", 2, 2),
      result("discarded"),
      result("discarded"),
      result("failed", 1, 1),
    ]);
    expect(tally).toEqual({
      batches: 4,
      handed: 3,
      done: 3,
      replayed: 1,
      discarded: 2,
      wouldDiscard: 0,
      kept: 1,
      refused: true,
    });
    const allDiscarded = replayTally([result("replayed", 1, 1), result("discarded")]);
    expect(allDiscarded.kept).toBe(0);
    expect(replayFailed(allDiscarded, false, false)).toBe(false);
    expect(replayFailed(allDiscarded, false, true)).toBe(true);
    const dry = replayTally([result("would replay", 1), result("would discard"), result("gone")]);
    expect(dry).toMatchObject({ kept: 1, wouldDiscard: 1, refused: false });
    expect(replayFailed(dry, true, false)).toBe(false);
    expect(replayFailed(dry, false, false)).toBe(true);
  });
});
