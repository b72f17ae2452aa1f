import { Writable } from "node:stream";
import type {
  EventBridgeClient,
  PutEventsRequestEntry,
  PutEventsResultEntry,
} from "@aws-sdk/client-eventbridge";
import { achievementId, achievementKey, grantId, rewardAchievedSchema } from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import { guardItem, lambdaContext, streamEvent, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { type AnnouncerDeps, isAnnouncerCandidate, processBatch, readStreamRecord } from "../src";

/** A bus that answers each call with `answers` in turn (then accepts everything), keeping what it was sent. */
function recordingBus(...answers: PutEventsResultEntry[][]) {
  const calls: PutEventsRequestEntry[][] = [];
  const client = {
    async send(command: { input: { Entries: PutEventsRequestEntry[] } }) {
      calls.push(command.input.Entries);
      const entries: PutEventsResultEntry[] =
        answers[calls.length - 1] ?? command.input.Entries.map((_, i) => ({ EventId: `ok-${i}` }));
      return { FailedEntryCount: entries.filter((e) => e.ErrorCode).length, Entries: entries };
    },
  } as unknown as EventBridgeClient;
  return { calls, client };
}

function deps(client: EventBridgeClient) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const announcer: AnnouncerDeps = {
    busName: "rewards-bus",
    stage: "test",
    eventBridge: client,
    logger: createLogger({ destination, level: "debug" }),
    retryPolicy: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 0 },
    clock: () => 1_700_000_000_000,
    emitMetrics: () => {},
  };
  return { lines, deps: announcer };
}

const key = "user123#idempotent-writes#article.completed";
const awardedAt = "2026-11-29T10:00:01.234Z";
/** The item the history's writer puts when an award crosses an achievement (docs/reading.md#achievements). */
const item = {
  ...achievementKey("user123", "first-article"),
  userId: "user123",
  achievement: "first-article",
  title: "First article",
  earnedAt: "2026-11-29T10:00:01.456Z",
  grantId: grantId(key, awardedAt),
};

describe("an achievement item's INSERT", () => {
  it("passes the mapping's filter, and is announced as exactly one reward.achieved with its id and data (docs/events.md#hearing-about-achievements-rewardachieved)", async () => {
    const record = streamRecord("INSERT", item);
    expect(isAnnouncerCandidate(record)).toBe(true);
    const bus = recordingBus();
    const { deps: announcer, lines } = deps(bus.client);
    const result = await processBatch(announcer, streamEvent([record]), lambdaContext());
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(result.counts).toEqual({ announced: 1, skipped: 0, failed: 0 });
    expect(bus.calls).toHaveLength(1);
    const [entry] = bus.calls[0] ?? [];
    const { Detail, ...rest } = entry as PutEventsRequestEntry;
    expect(rest).toEqual({
      EventBusName: "rewards-bus",
      Source: "rewards",
      DetailType: "reward.achieved",
      Time: new Date("2026-11-29T10:00:01.456Z"),
    });
    const detail = JSON.parse(String(Detail));
    expect(detail).toEqual({
      specversion: "1.0",
      // base64url(sha256("user123\nfirst-article")), computed with Python.
      id: "achieve-rgefJTKAHdb2dgChdIqrSVCjXI9uV5EFTQ5E5zbXUwM",
      source: "/rewards",
      type: "reward.achieved",
      time: "2026-11-29T10:00:01.456Z",
      subject: "user123",
      datacontenttype: "application/json",
      data: {
        userId: "user123",
        achievement: "first-article",
        title: "First article",
        earnedAt: "2026-11-29T10:00:01.456Z",
        grantId: "grant-QLNONTAmOKHH-QDcZK_-CLz_UGJ_0fmJNKE-BP-XlqA",
      },
    });
    expect(rewardAchievedSchema.parse(detail)).toEqual(detail);
    expect(result.published).toEqual([detail]);
    expect(lines.filter((line) => line.msg === "announced")).toEqual([
      expect.objectContaining({ level: 20, id: detail.id, userId: "user123", achievement: "first-article" }),
    ]);
  });

  it("every copy has one id: the user's and the achievement's alone", () => {
    const idOf = (image: Record<string, unknown>) => {
      const read = readStreamRecord(streamRecord("INSERT", image));
      return read.kind === "announce" ? read.announcement.id : "";
    };
    expect(idOf(item)).toBe(achievementId("user123", "first-article"));
    expect(idOf({ ...item })).toBe(idOf(item));
    const { grantId: _grant, ...withoutGrant } = item;
    expect(idOf({ ...withoutGrant, earnedAt: "2026-12-01T00:00:00.000Z" })).toBe(idOf(item));
    expect(idOf({ ...item, ...achievementKey("user124", "first-article"), userId: "user124" })).toBe(
      achievementId("user124", "first-article"),
    );
  });

  it("is published in stream order with the awards of its batch", async () => {
    const guard = guardItem(key, { awardedAt, eventId: "evt-01JDX3" });
    const bus = recordingBus();
    const result = await processBatch(
      deps(bus.client).deps,
      streamEvent([streamRecord("INSERT", guard), streamRecord("INSERT", item)]),
      lambdaContext(),
    );
    expect(result.counts).toEqual({ announced: 2, skipped: 0, failed: 0 });
    expect(bus.calls.map((call) => call.map((e) => e.DetailType))).toEqual([
      ["reward.granted", "reward.achieved"],
    ]);
    expect(result.published.map((a) => a.id)).toEqual([
      grantId(key, awardedAt),
      achievementId("user123", "first-article"),
    ]);
  });

  it("one the bus refuses is reported by its sequence number, so retried", async () => {
    const record = streamRecord("INSERT", item);
    const bus = recordingBus([{ ErrorCode: "InternalFailure", ErrorMessage: "try again" }]);
    const result = await processBatch(deps(bus.client).deps, streamEvent([record]), lambdaContext());
    expect(result.counts).toEqual({ announced: 0, skipped: 0, failed: 1 });
    expect(result.response).toEqual({
      batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber }],
    });
  });

  it("one it cannot read is reported with why, never skipped", async () => {
    const bad = streamRecord("INSERT", { ...item, earnedAt: "yesterday" });
    const noImage = streamRecord("INSERT", item, { newImage: null });
    expect(readStreamRecord(bad)).toMatchObject({
      kind: "unreadable",
      reason: expect.stringContaining("earnedAt"),
    });
    expect(readStreamRecord(noImage)).toMatchObject({
      kind: "unreadable",
      reason: "an achievement's INSERT without its new image (the stream must show NEW_IMAGE)",
    });
    const bus = recordingBus();
    const { deps: announcer, lines } = deps(bus.client);
    const result = await processBatch(announcer, streamEvent([bad, noImage]), lambdaContext());
    expect(bus.calls).toEqual([]);
    expect(result.counts).toEqual({ announced: 0, skipped: 0, failed: 2 });
    expect(result.response).toEqual({
      batchItemFailures: [
        { itemIdentifier: bad.dynamodb?.SequenceNumber },
        { itemIdentifier: noImage.dynamodb?.SequenceNumber },
      ],
    });
    expect(lines.filter((line) => line.level === 40)).toHaveLength(2);
  });

  it("an achievement item's MODIFY or REMOVE announces nothing (no writer makes one)", () => {
    expect(readStreamRecord(streamRecord("MODIFY", item)).kind).toBe("skip");
    expect(readStreamRecord(streamRecord("REMOVE", item)).kind).toBe("skip");
  });
});
