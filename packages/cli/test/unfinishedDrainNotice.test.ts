import { describe, expect, it } from "vitest";
import { unfinishedDrainNotice } from "../src/text/unfinishedDrainNotice";

describe("the line a --drain run ends with when it stopped before catching up", () => {
  it("none when it caught up, or was not draining", () => {
    expect(
      unfinishedDrainNotice({ drain: true, caughtUp: true, stoppedBy: "caught up" }, "announcer", undefined),
    ).toBe(undefined);
    expect(
      unfinishedDrainNotice({ drain: false, caughtUp: false, stoppedBy: "SIGINT" }, "announcer", undefined),
    ).toBe(undefined);
  });

  it("says what stopped it, and where the next run resumes", () => {
    expect(
      unfinishedDrainNotice({ drain: true, caughtUp: false, stoppedBy: "SIGTERM" }, "announcer", undefined),
    ).toBe(
      "--drain stopped by SIGTERM before the announcer caught up with the stream; run it again to go on",
    );
    expect(
      unfinishedDrainNotice(
        { drain: true, caughtUp: false, stoppedBy: "the source's end" },
        "history's writer",
        "history.json",
      ),
    ).toBe(
      "--drain stopped by the source's end before the history's writer caught up with the stream; run it again to go on (it resumes from history.json)",
    );
  });
});
