import { describe, expect, it } from "vitest";
import { givenUpNotice } from "../src/text/givenUpNotice";

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
