import { describe, expect, it } from "vitest";
import { countVerdicts, guardStanding, type RevokeResult, readGuard, resultOf } from "../src/domain";

const nowMs = Date.parse("2026-12-01T12:00:00.500Z");
const nowSeconds = 1_796_126_400;
const item = {
  pk: "IDEM#u1#a#article.completed",
  sk: "IDEM",
  userId: "u1",
  type: "article.completed",
  amount: 20,
  eventId: "e-1",
  messageId: "m-1",
  awardedAt: "2026-11-29T10:00:01.234Z",
  expiresAt: nowSeconds + 60,
};
const stored = {
  intentKey: "u1#a#article.completed",
  sk: "IDEM",
  userId: "u1",
  type: "article.completed",
  amount: 20,
  eventId: "e-1",
  messageId: "m-1",
  awardedAt: "2026-11-29T10:00:01.234Z",
  expiresAt: nowSeconds + 60,
};
const revoked = {
  ...item,
  revokedAt: "2026-12-01T11:00:00.000Z",
  revokedReason: "bot",
  revocationId: "attempt-1",
};

describe("guardStanding", () => {
  it("no item: not_found", () => {
    expect(guardStanding(undefined, nowMs)).toEqual({
      verdict: "not_found",
      reason: "no guard: never paid, or expired and swept",
    });
  });

  it("an expired guard not yet swept is not_found, as the worker's put reads expiry (expiresAt < now seconds)", () => {
    expect(guardStanding({ ...item, expiresAt: nowSeconds - 1 }, nowMs)).toEqual({
      verdict: "not_found",
      reason: "guard expired at 2026-12-01T11:59:59.000Z (not yet swept)",
    });
    // In its last second it still counts, as it does for the worker.
    expect(guardStanding({ ...item, expiresAt: nowSeconds }, nowMs)).toMatchObject({ verdict: "revocable" });
  });

  it("a live, unrevoked guard is revocable, with the award read (intent key from its pk); kept forever too", () => {
    expect(guardStanding(item, nowMs)).toEqual({ verdict: "revocable", guard: stored });
    const { expiresAt: _, ...forever } = item;
    const { expiresAt: __, ...storedForever } = stored;
    expect(guardStanding(forever, nowMs)).toEqual({ verdict: "revocable", guard: storedForever });
  });

  it("a revoked guard is already_revoked — unless it carries this run's own attempt id (an answer lost)", () => {
    const guard = {
      ...stored,
      revokedAt: revoked.revokedAt,
      revokedReason: "bot",
      revocationId: "attempt-1",
    };
    expect(guardStanding(revoked, nowMs)).toEqual({ verdict: "already_revoked", guard });
    expect(guardStanding(revoked, nowMs, { revocationId: "attempt-1" })).toEqual({
      verdict: "revoked",
      guard,
    });
    // Another run's revocation of the same millisecond and reason is not this one's: only the id tells.
    expect(guardStanding(revoked, nowMs, { revocationId: "attempt-2" })).toMatchObject({
      verdict: "already_revoked",
    });
    // A revocation written before the id existed is never this run's: not after an attempt of
    // ours, and not before any (no id on the guard is not "the same id as no attempt").
    const { revocationId: _, ...unmarked } = revoked;
    expect(guardStanding(unmarked, nowMs, { revocationId: "attempt-1" })).toMatchObject({
      verdict: "already_revoked",
    });
    expect(guardStanding(unmarked, nowMs)).toMatchObject({ verdict: "already_revoked" });
  });

  it("a revoked guard that expired is not_found: the intent is forgotten", () => {
    expect(guardStanding({ ...revoked, expiresAt: nowSeconds - 1 }, nowMs)).toMatchObject({
      verdict: "not_found",
    });
  });

  it("an item that is no guard fails, naming what is wrong", () => {
    expect(guardStanding({ ...item, amount: "20" }, nowMs)).toEqual({
      verdict: "failed",
      reason: "unreadable guard: amount: Invalid input: expected number, received string",
    });
    expect(readGuard({ ...item, pk: "USER#u1" })).toEqual({
      ok: false,
      reason: 'unreadable guard: pk: Invalid string: must start with "IDEM#"',
    });
    expect(readGuard({ ...item, awardedAt: "yesterday" })).toEqual({
      ok: false,
      reason: "unreadable guard: awardedAt: must be an RFC 3339 date-time",
    });
    expect(readGuard({ ...item, amount: -1 })).toMatchObject({ ok: false });
    expect(readGuard({ ...item, sk: "PROFILE" })).toMatchObject({ ok: false });
  });

  it("a capped guard (amount 0, requested) reads as one", () => {
    expect(guardStanding({ ...item, amount: 0, requested: 20 }, nowMs)).toEqual({
      verdict: "revocable",
      guard: { ...stored, amount: 0, requested: 20 },
    });
  });
});

describe("resultOf", () => {
  it("says what a line did, with user and XP", () => {
    expect(resultOf(3, "k", guardStanding(item, nowMs))).toEqual({
      line: 3,
      verdict: "would_revoke",
      intentKey: "k",
      userId: "u1",
      xp: 20,
    });
    expect(resultOf(4, "k", guardStanding(revoked, nowMs))).toEqual({
      line: 4,
      verdict: "already_revoked",
      intentKey: "k",
      userId: "u1",
      xp: 20,
      revokedAt: "2026-12-01T11:00:00.000Z",
      revokedReason: "bot",
    });
    expect(resultOf(5, "k", guardStanding(revoked, nowMs, { revocationId: "attempt-1" }))).toMatchObject({
      verdict: "revoked",
    });
    const { revokedReason: _, ...noReason } = revoked;
    // No revokedReason key at all (not one holding undefined).
    expect(resultOf(6, "k", guardStanding(noReason, nowMs))).toStrictEqual({
      line: 6,
      verdict: "already_revoked",
      intentKey: "k",
      userId: "u1",
      xp: 20,
      revokedAt: "2026-12-01T11:00:00.000Z",
    });
    expect(resultOf(1, "k", guardStanding(undefined, nowMs))).toEqual({
      line: 1,
      verdict: "not_found",
      intentKey: "k",
      reason: "no guard: never paid, or expired and swept",
    });
    expect(resultOf(2, "k", { verdict: "failed", reason: "why" })).toEqual({
      line: 2,
      verdict: "failed",
      intentKey: "k",
      reason: "why",
    });
  });
});

describe("countVerdicts", () => {
  it("counts every verdict, 0 for those that did not happen", () => {
    const results: RevokeResult[] = [
      { line: 1, verdict: "revoked" },
      { line: 2, verdict: "revoked" },
      { line: 3, verdict: "invalid" },
      { line: 4, verdict: "failed" },
      { line: 5, verdict: "copy" },
    ];
    expect(countVerdicts(results)).toEqual({
      revoked: 2,
      would_revoke: 0,
      already_revoked: 0,
      not_found: 0,
      invalid: 1,
      failed: 1,
      copy: 1,
    });
    expect(countVerdicts([])).toEqual({
      revoked: 0,
      would_revoke: 0,
      already_revoked: 0,
      not_found: 0,
      invalid: 0,
      failed: 0,
      copy: 0,
    });
  });
});
