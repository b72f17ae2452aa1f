import { Writable } from "node:stream";
import type { EventBridgeClient, PutEventsRequestEntry } from "@aws-sdk/client-eventbridge";
import { grantId, revokeId, rewardRevokedSchema } from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import { guardItem, lambdaContext, streamEvent, streamRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { type AnnouncerDeps, isAnnouncerCandidate, processBatch, readStreamRecord } from "../src";

/** A bus that takes every entry, keeping what it was sent. */
function recordingBus() {
  const calls: PutEventsRequestEntry[][] = [];
  const client = {
    async send(command: { input: { Entries: PutEventsRequestEntry[] } }) {
      calls.push(command.input.Entries);
      return { FailedEntryCount: 0, Entries: command.input.Entries.map((_, i) => ({ EventId: `ok-${i}` })) };
    },
  } as unknown as EventBridgeClient;
  return { calls, client };
}

function deps(client: EventBridgeClient): AnnouncerDeps {
  return {
    busName: "rewards-bus",
    stage: "test",
    eventBridge: client,
    logger: createLogger({ destination: new Writable({ write: (_c, _e, done) => done() }), level: "debug" }),
    retryPolicy: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 0 },
    clock: () => 1_700_000_000_000,
    emitMetrics: () => {},
  };
}

const key = "user123#idempotent-writes#article.completed";
const awardedAt = "2026-11-29T10:00:01.234Z";
const paid = guardItem(key, { awardedAt, eventId: "evt-01JDX3", messageId: "m-1" });
const revocation = { revokedAt: "2026-12-01T12:00:00.000Z", revokedReason: "producer bug" };
const award = {
  userId: "user123",
  eventType: "article.completed",
  xp: 20,
  intentKey: key,
  eventId: "evt-01JDX3",
  awardedAt,
};

describe("a revoked guard's MODIFY", () => {
  it("passes the mapping's filter, and is announced as exactly one reward.revoked with its id and data (docs/events.md#hearing-about-revocations-rewardrevoked)", async () => {
    const record = streamRecord("MODIFY", { ...paid, ...revocation });
    expect(isAnnouncerCandidate(record)).toBe(true);
    const bus = recordingBus();
    const result = await processBatch(deps(bus.client), streamEvent([record]), lambdaContext());
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(result.counts).toEqual({ announced: 1, skipped: 0, failed: 0 });
    expect(bus.calls).toHaveLength(1);
    const [entry] = bus.calls[0] ?? [];
    const { Detail, ...rest } = entry as PutEventsRequestEntry;
    expect(rest).toEqual({
      EventBusName: "rewards-bus",
      Source: "rewards",
      DetailType: "reward.revoked",
      Time: new Date("2026-12-01T12:00:00.000Z"),
    });
    const detail = JSON.parse(String(Detail));
    expect(detail).toEqual({
      specversion: "1.0",
      id: revokeId(key, awardedAt),
      source: "/rewards",
      type: "reward.revoked",
      time: "2026-12-01T12:00:00.000Z",
      subject: "user123",
      datacontenttype: "application/json",
      data: { ...award, revokedAt: "2026-12-01T12:00:00.000Z", reason: "producer bug" },
    });
    expect(rewardRevokedSchema.parse(detail)).toEqual(detail);
    // Not the grant's id: a consumer deduplicating on id keeps both. Computed independently:
    // base64url(sha256("user123#idempotent-writes#article.completed\n2026-11-29T10:00:01.234Z\nrevoked")).
    expect(detail.id).not.toBe(grantId(key, awardedAt));
    expect(detail.id).toBe("revoke--DQPlq_1uPwidMW_TMyChUh9anW1fdCPrnqLfr2wF7g");
  });

  it("every copy of one revocation has one id; another award of the intent revoked has another", () => {
    const once = readStreamRecord(streamRecord("MODIFY", { ...paid, ...revocation }));
    const again = readStreamRecord(streamRecord("MODIFY", { ...paid, ...revocation }));
    const later = readStreamRecord(
      streamRecord("MODIFY", { ...paid, ...revocation, awardedAt: "2027-03-01T10:00:00.000Z" }),
    );
    const idOf = (read: ReturnType<typeof readStreamRecord>) =>
      read.kind === "announce" ? read.announcement.id : "";
    expect(idOf(again)).toBe(idOf(once));
    expect(idOf(later)).toBe(revokeId(key, "2027-03-01T10:00:00.000Z"));
    expect(idOf(later)).not.toBe(idOf(once));
  });

  it("a 0-XP (capped) guard revoked is still announced, with xp 0 and its requestedXp", () => {
    const capped = { ...paid, amount: 0, requested: 20 };
    // The capped award itself announced nothing…
    expect(readStreamRecord(streamRecord("INSERT", capped)).kind).toBe("skip");
    // …its revocation is announced all the same.
    const read = readStreamRecord(streamRecord("MODIFY", { ...capped, ...revocation }));
    expect(read).toMatchObject({
      kind: "announce",
      announcement: {
        type: "reward.revoked",
        id: revokeId(key, awardedAt),
        data: { ...award, xp: 0, requestedXp: 20, revokedAt: revocation.revokedAt, reason: "producer bug" },
      },
    });
  });

  it("a guard write without revokedAt stays a grant, INSERT or MODIFY", () => {
    for (const eventName of ["INSERT", "MODIFY"] as const) {
      const read = readStreamRecord(streamRecord(eventName, paid));
      expect(read).toMatchObject({
        kind: "announce",
        announcement: { type: "reward.granted", id: grantId(key, awardedAt) },
      });
    }
  });

  it("a revoked guard that does not say why cannot be read: it fails rather than announce half a revocation", () => {
    const read = readStreamRecord(streamRecord("MODIFY", { ...paid, revokedAt: revocation.revokedAt }));
    expect(read).toMatchObject({
      kind: "unreadable",
      reason: "revokedReason: a revoked guard must say why",
    });
  });

  it("the TTL sweeper deleting a revoked guard announces nothing", () => {
    const record = streamRecord("REMOVE", { ...paid, ...revocation });
    expect(isAnnouncerCandidate(record)).toBe(false);
    expect(readStreamRecord(record).kind).toBe("skip");
  });
});
