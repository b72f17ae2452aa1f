import { MAX_MESSAGE_BYTES, messageSize } from "@rewards/core";
import { describe, expect, it } from "vitest";
import { chunkEntries } from "../src/batchEntries";
import { createEventBuilders } from "../src/eventBuilders";

const entry = (index: number, bytes: number) => ({ index, body: "x".repeat(bytes), attributes: {} });

describe("chunkEntries", () => {
  it("cuts at 10 entries", () => {
    const chunks = chunkEntries(Array.from({ length: 25 }, (_, i) => entry(i, 10)));
    expect(chunks.map((c) => c.map((e) => e.index))).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      [20, 21, 22, 23, 24],
    ]);
  });

  it("cuts before a batch would pass 1 MiB", () => {
    const third = Math.floor(MAX_MESSAGE_BYTES / 3);
    const chunks = chunkEntries([entry(0, third), entry(1, third), entry(2, third), entry(3, third)]);
    expect(chunks.map((c) => c.map((e) => e.index))).toEqual([[0, 1, 2], [3]]);
  });

  it("counts attribute names, types and values", () => {
    expect(messageSize("ab", { type: { DataType: "String", StringValue: "article.completed" } })).toBe(
      2 + 4 + 6 + 17,
    );
  });
});

describe("event builders", () => {
  it("fill the envelope and give sortable, unique ids", () => {
    const events = createEventBuilders("/reader/web", () => new Date("2026-11-29T10:00:00.000Z"));
    const first = events.articleCompleted({ userId: "user123", articleSlug: "idempotent-writes" });
    const second = events.signupCompleted({ userId: "user123" });
    expect(first).toEqual({
      specversion: "1.0",
      id: expect.stringMatching(/^evt-[0-9A-HJKMNP-TV-Z]{26}$/),
      source: "/reader/web",
      type: "article.completed",
      time: "2026-11-29T10:00:00.000Z",
      datacontenttype: "application/json",
      data: { userId: "user123", articleSlug: "idempotent-writes" },
    });
    expect(second.id > first.id).toBe(true);
  });
});
