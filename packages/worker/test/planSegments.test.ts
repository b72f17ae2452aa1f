import { decodeEvent } from "@rewards/core";
import { completed, eventBody, signup, sqsRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { planSegments } from "../src/function/planSegments";
import { triage } from "../src/function/processMessage";

const NOW = Date.now();
const triaged = (...records: ReturnType<typeof sqsRecord>[]) =>
  records.map((record) => triage({ record, decoded: decodeEvent(record.body) }, NOW));
const shape = (fifo: boolean, ...records: ReturnType<typeof sqsRecord>[]) =>
  planSegments(triaged(...records), fifo).map((segment) =>
    segment.kind === "park"
      ? `park:${segment.record.item.record.messageId}`
      : `award:${segment.records.map((each) => each.item.record.messageId).join(",")}`,
  );
const record = (body: string, messageId: string) => sqsRecord(body, { messageId });

describe("planSegments", () => {
  it("standard queue: a user's awards all together; what is parked stands alone", () => {
    const old = eventBody(
      "article.completed",
      { userId: "ann", articleSlug: "x" },
      { time: "2020-01-01T00:00:00Z" },
    );
    expect(
      shape(
        false,
        record(completed("ann", "a"), "1"),
        record(old, "2"),
        record(signup("ann"), "3"),
        record("{", "4"),
      ),
    ).toEqual(["award:1,3", "park:2", "park:4"]);
  });

  it("FIFO: only a run of one user's consecutive awards goes together, in order", () => {
    expect(
      shape(
        true,
        record(completed("ann", "a"), "1"),
        record(completed("ann", "b"), "2"),
        record(completed("bob", "a"), "3"),
        record(completed("ann", "c"), "4"),
        record("{", "5"),
        record(completed("ann", "d"), "6"),
        record(completed("ann", "e"), "7"),
      ),
    ).toEqual(["award:1,2", "award:3", "award:4", "park:5", "award:6,7"]);
  });

  it("judges the cap's day from the event's time, in UTC", () => {
    // Three hours ago, written at UTC−05:00: its UTC day is the one that counts.
    const at = NOW - 3 * 3_600_000;
    const offset = `${new Date(at - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
    const late = eventBody("article.completed", { userId: "ann", articleSlug: "x" }, { time: offset });
    const [one] = triaged(record(late, "1"));
    expect(one?.kind === "award" && one.award.earnedOn).toBe(new Date(at).toISOString().slice(0, 10));
    // The guard's eventTime is that same instant, in UTC: the history's day is the cap's.
    expect(one?.kind === "award" && one.award.eventTime).toBe(new Date(Date.parse(offset)).toISOString());
    const [undated] = triaged(
      sqsRecord(JSON.stringify({ ...JSON.parse(completed("ann", "y")), time: undefined }), {
        messageId: "2",
        messageAttributes: {
          "rewards.firstSentAt": {
            dataType: "String",
            stringValue: new Date(NOW - 86_400_000).toISOString(),
          },
        },
      }),
    );
    expect(undated?.kind === "award" && undated.award.earnedOn).toBe(
      new Date(NOW - 86_400_000).toISOString().slice(0, 10),
    );
    expect(undated?.kind === "award" && undated.award.messageId).toBe("2");
    expect(undated?.kind === "award" && undated.award.eventTime).toBe(
      new Date(NOW - 86_400_000).toISOString(),
    );
    const bare = sqsRecord(JSON.stringify({ ...JSON.parse(completed("ann", "z")), time: undefined }));
    const [sent] = triaged({
      ...bare,
      attributes: { ...bare.attributes, SentTimestamp: String(NOW - 7_200_000) },
    });
    expect(sent?.kind === "award" && sent.award.eventTime).toBe(new Date(NOW - 7_200_000).toISOString());
  });
});
