import { describe, expect, it } from "vitest";
import { guardImageSchema, historyItemOf, historyRepairOf } from "../src/domain";

const AWARDED = "2026-11-29T10:00:01.234Z";
const AWARDED_S = Math.floor(Date.parse(AWARDED) / 1000);
const NOW = Date.parse("2026-12-01T00:00:00.000Z");
const KEY = "user123#idempotent-writes#article.completed";
const REVOKED = { revokedAt: "2026-11-30T00:00:00.000Z", revokedReason: "abuse" };
const guard = (extra: Record<string, unknown> = {}) =>
  guardImageSchema.parse({
    pk: `IDEM#${KEY}`,
    sk: "IDEM",
    userId: "user123",
    type: "article.completed",
    amount: 20,
    eventId: "evt-1",
    awardedAt: AWARDED,
    eventTime: "2026-11-29T09:59:58.000Z",
    data: { articleSlug: "idempotent-writes" },
    ...extra,
  });
const options = { historyDays: 400, nowMs: NOW };
const itemOf = (extra: Record<string, unknown> = {}) => historyItemOf(guard(extra), { historyDays: 400 });

describe("historyRepairOf", () => {
  it("no item: the writer's item, to write", () => {
    expect(historyRepairOf(guard(), undefined, options)).toStrictEqual({ kind: "missing", item: itemOf() });
    expect(historyRepairOf(guard(REVOKED), undefined, options)).toStrictEqual({
      kind: "missing",
      item: itemOf(REVOKED),
    });
  });

  it("the writer's item, attribute for attribute: unchanged, whatever the key order", () => {
    const reordered = Object.fromEntries(Object.entries(itemOf(REVOKED)).reverse());
    expect(historyRepairOf(guard(REVOKED), reordered, options)).toStrictEqual({
      kind: "unchanged",
      keptRevocation: false,
    });
  });

  it("an item that differs: the writer's item, and which attributes differed (sorted)", () => {
    const wrong = { ...itemOf(), xp: 99, data: { articleSlug: "other" }, extra: "x" };
    delete (wrong as Record<string, unknown>).eventTime;
    expect(historyRepairOf(guard(), wrong, options)).toStrictEqual({
      kind: "wrong",
      item: itemOf(),
      fields: ["data", "eventTime", "extra", "xp"],
      keptRevocation: false,
    });
  });

  it("an item keeps the retention it was written with: another setting is no repair, and a rewrite keeps it", () => {
    const { expiresAt, ...forever } = itemOf();
    const longer = { ...itemOf(), expiresAt: (expiresAt as number) + 86_400 };
    // A history kept forever (no expiresAt), rebuilt with the shell's default of 400 days.
    expect(historyRepairOf(guard(), forever, options)).toStrictEqual({
      kind: "unchanged",
      keptRevocation: false,
    });
    expect(historyRepairOf(guard(), longer, options)).toStrictEqual({
      kind: "unchanged",
      keptRevocation: false,
    });
    expect(historyRepairOf(guard(), { ...forever, xp: 99 }, options)).toStrictEqual({
      kind: "wrong",
      item: forever,
      fields: ["xp"],
      keptRevocation: false,
    });
    expect(historyRepairOf(guard(), { ...longer, xp: 99 }, options)).toStrictEqual({
      kind: "wrong",
      item: longer,
      fields: ["xp"],
      keptRevocation: false,
    });
  });

  it("a revoked guard whose item is not revoked: the revocation is written", () => {
    expect(historyRepairOf(guard(REVOKED), itemOf(), options)).toStrictEqual({
      kind: "wrong",
      item: itemOf(REVOKED),
      fields: ["revokedAt", "revokedReason"],
      keptRevocation: false,
    });
  });

  it("a revoked guard: its own revocation wins over another on the item", () => {
    const other = { ...itemOf(REVOKED), revokedAt: "2026-11-30T01:00:00.000Z" };
    expect(historyRepairOf(guard(REVOKED), other, options)).toMatchObject({
      kind: "wrong",
      item: itemOf(REVOKED),
      fields: ["revokedAt"],
    });
  });

  it("an item revoked while its guard is not: the revocation is kept, never removed", () => {
    expect(historyRepairOf(guard(), itemOf(REVOKED), options)).toStrictEqual({
      kind: "unchanged",
      keptRevocation: true,
    });
    // Other attributes are still corrected, the revocation kept with them.
    expect(historyRepairOf(guard(), { ...itemOf(REVOKED), xp: 99 }, options)).toStrictEqual({
      kind: "wrong",
      item: itemOf(REVOKED),
      fields: ["xp"],
      keptRevocation: true,
    });
    // A revocation without a reason keeps what it has; one that is not a time is no revocation.
    const { revokedReason: _, ...noReason } = itemOf(REVOKED);
    expect(historyRepairOf(guard(), noReason, options)).toStrictEqual({
      kind: "unchanged",
      keptRevocation: true,
    });
    expect(historyRepairOf(guard(), { ...itemOf(), revokedAt: "yesterday" }, options)).toStrictEqual({
      kind: "wrong",
      item: itemOf(),
      fields: ["revokedAt"],
      keptRevocation: false,
    });
  });

  it("past its retention (awardedAt + historyDays, as the TTL judges expiresAt): expired, whatever the item", () => {
    const at = (seconds: number) => ({ historyDays: 2, nowMs: seconds * 1000 });
    const expiresAt = AWARDED_S + 2 * 86_400;
    expect(historyRepairOf(guard(), undefined, at(expiresAt + 1))).toStrictEqual({ kind: "expired" });
    expect(historyRepairOf(guard(), { ...itemOf(), xp: 1 }, at(expiresAt + 1))).toStrictEqual({
      kind: "expired",
    });
    // Not before it has passed: expiresAt < now, in whole seconds.
    expect(historyRepairOf(guard(), undefined, at(expiresAt)).kind).toBe("missing");
    expect(historyRepairOf(guard(), undefined, { historyDays: 2, nowMs: expiresAt * 1000 + 999 }).kind).toBe(
      "missing",
    );
    // Kept forever: never expired.
    expect(historyRepairOf(guard(), undefined, { historyDays: 0, nowMs: NOW * 100 }).kind).toBe("missing");
  });
});
