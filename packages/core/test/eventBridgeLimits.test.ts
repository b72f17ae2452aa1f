import { describe, expect, it } from "vitest";
import { MAX_PUT_EVENTS_BYTES, MAX_PUT_EVENTS_ENTRIES, putEventsEntryBytes } from "../src/domain";

describe("EventBridge's PutEvents limits", () => {
  it("are 10 entries and 256 KB a call", () => {
    expect([MAX_PUT_EVENTS_ENTRIES, MAX_PUT_EVENTS_BYTES]).toEqual([10, 262_144]);
  });

  it("size an entry as EventBridge does: Source, DetailType, Detail, Resources in UTF-8, and 14 bytes for Time", () => {
    expect(putEventsEntryBytes({})).toBe(14);
    expect(
      putEventsEntryBytes({
        Source: "rewards",
        DetailType: "reward.granted",
        Detail: '{"é":1}',
        Resources: ["ab", "c"],
      }),
    ).toBe(7 + 14 + 8 + 3 + 14);
    expect(putEventsEntryBytes({ Source: 1, Detail: { not: "text" }, Resources: "ab" })).toBe(14);
  });
});
