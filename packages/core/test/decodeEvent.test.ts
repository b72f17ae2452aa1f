import { describe, expect, it } from "vitest";
import { decodeEvent, parkReason, rules, validatePublished } from "../src/domain";

const DAY = 86_400;
const event = (type: string, data: unknown, extra: object = {}) =>
  JSON.stringify({
    specversion: "1.0",
    id: "evt-01JDX3",
    source: "/reader/web",
    type,
    time: "2026-11-29T10:00:00Z",
    datacontenttype: "application/json",
    data,
    ...extra,
  });

describe("decodeEvent", () => {
  it.each([
    [
      "article.completed",
      { userId: "user123", articleSlug: "idempotent-writes" },
      20,
      "user123#idempotent-writes#article.completed",
      90 * DAY,
    ],
    [
      "article.shared",
      { userId: "u", articleSlug: "s", channel: "mastodon" },
      5,
      "u#s#mastodon#article.shared",
      90 * DAY,
    ],
    ["streak.day", { userId: "u", day: "2026-11-29" }, 10, "u#2026-11-29#streak.day", 90 * DAY],
    ["signup.completed", { userId: "u" }, 100, "u#signup.completed", undefined],
  ])("%s pays %#", (type, data, amount, key, ttl) => {
    const { userId: _userId, ...rest } = data;
    expect(decodeEvent(event(type, data))).toStrictEqual({
      ok: true,
      award: {
        intentKey: key,
        userId: data.userId,
        type,
        amount,
        eventId: "evt-01JDX3",
        data: rest,
        guardTtlSeconds: ttl,
        time: "2026-11-29T10:00:00Z",
        ...(type === "streak.day" ? { day: "2026-11-29" } : {}),
      },
    });
  });

  it("ignores unknown fields and any amount the producer claims", () => {
    const decoded = decodeEvent(
      event(
        "article.completed",
        { userId: "u", articleSlug: "s", amount: 1_000_000, xp: 5 },
        { traceparent: "00-abc" },
      ),
    );
    expect(decoded.ok && decoded.award.amount).toBe(rules["article.completed"].xp);
    // The guard keeps only the validated data, for the history: never a claimed amount.
    expect(decoded.ok && decoded.award.data).toStrictEqual({ articleSlug: "s" });
  });

  it("accepts any Unicode userId up to 256 characters", () => {
    expect(decodeEvent(event("signup.completed", { userId: "🦊".repeat(256) })).ok).toBe(true);
    expect(decodeEvent(event("signup.completed", { userId: "用户#%" })).ok).toBe(true);
  });

  it.each([
    ["not JSON", "{nope", "invalid_json", /^body is not JSON/],
    ["a JSON array", "[1]", "invalid_event", /expected object/],
    [
      "wrong specversion",
      event("signup.completed", { userId: "u" }, { specversion: "0.3" }),
      "invalid_event",
      /^specversion: /,
    ],
    ["missing id", event("signup.completed", { userId: "u" }, { id: undefined }), "invalid_event", /^id: /],
    [
      "id of 129 chars",
      event("signup.completed", { userId: "u" }, { id: "i".repeat(129) }),
      "invalid_event",
      /^id: /,
    ],
    [
      "source of 257 chars",
      event("signup.completed", { userId: "u" }, { source: "s".repeat(257) }),
      "invalid_event",
      /^source: /,
    ],
    [
      "time not RFC 3339",
      event("signup.completed", { userId: "u" }, { time: "yesterday" }),
      "invalid_event",
      /^time: /,
    ],
    ["data not an object", event("signup.completed", "u"), "invalid_event", /^data: /],
    [
      "unknown type",
      event("article.liked", { userId: "u" }),
      "unknown_type",
      /no reward rule for type "article.liked"/,
    ],
    ["empty userId", event("signup.completed", { userId: "" }), "invalid_event", /^data\.userId: /],
    [
      "userId of 257 characters",
      event("signup.completed", { userId: "🦊".repeat(257) }),
      "invalid_event",
      /^data\.userId: /,
    ],
    [
      "missing articleSlug",
      event("article.completed", { userId: "u" }),
      "invalid_event",
      /^data\.articleSlug: /,
    ],
    [
      "slug of 513 chars",
      event("article.completed", { userId: "u", articleSlug: "s".repeat(513) }),
      "invalid_event",
      /^data\.articleSlug: /,
    ],
    [
      "channel of 65 chars",
      event("article.shared", { userId: "u", articleSlug: "s", channel: "c".repeat(65) }),
      "invalid_event",
      /^data\.channel: /,
    ],
    [
      "day not a date",
      event("streak.day", { userId: "u", day: "29/11/2026" }),
      "invalid_event",
      /^data\.day: /,
    ],
    [
      "time on a day that does not exist",
      event("signup.completed", { userId: "u" }, { time: "2026-02-30T10:00:00Z" }),
      "invalid_event",
      /^time: /,
    ],
    [
      "time without an offset",
      event("signup.completed", { userId: "u" }, { time: "2026-11-29T10:00:00" }),
      "invalid_event",
      /^time: /,
    ],
    [
      "a lone high surrogate in userId",
      event("signup.completed", { userId: "x\ud800" }),
      "invalid_event",
      /^data\.userId: must be well-formed Unicode/,
    ],
    [
      "a lone low surrogate in articleSlug",
      event("article.completed", { userId: "u", articleSlug: "\udc00s" }),
      "invalid_event",
      /^data\.articleSlug: must be well-formed Unicode/,
    ],
    [
      "a lone surrogate in channel",
      event("article.shared", { userId: "u", articleSlug: "s", channel: "c\udfff" }),
      "invalid_event",
      /^data\.channel: /,
    ],
    [
      "a lone surrogate in id",
      event("signup.completed", { userId: "u" }, { id: "evt-\ud83d" }),
      "invalid_event",
      /^id: /,
    ],
    [
      "a lone surrogate in type",
      event("signup.completed\ud800", { userId: "u" }),
      "invalid_event",
      /^type: /,
    ],
    [
      "day not a calendar day",
      event("streak.day", { userId: "u", day: "2026-02-30" }),
      "invalid_event",
      /^data\.day: /,
    ],
  ])("parks %s", (_label, body, code, reason) => {
    const decoded = decodeEvent(body);
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.park.code).toBe(code);
    expect(decoded.park.reason).toMatch(reason);
  });

  it.each([
    "2026-11-29T10:00:00Z",
    "2026-11-29t10:00:00z",
    "2026-11-29T10:00:00.123456+05:30",
    "2026-11-29t23:59:60-00:00",
    "2024-02-29T00:00:00Z",
  ])("accepts the RFC 3339 time %s", (time) => {
    expect(decodeEvent(event("signup.completed", { userId: "u" }, { time })).ok).toBe(true);
  });

  it("accepts an event without time (optional in CloudEvents)", () => {
    const decoded = decodeEvent(event("signup.completed", { userId: "u" }, { time: undefined }));
    expect(decoded).toStrictEqual({
      ok: true,
      award: {
        intentKey: "u#signup.completed",
        userId: "u",
        type: "signup.completed",
        amount: 100,
        eventId: "evt-01JDX3",
        data: {},
        guardTtlSeconds: undefined,
      },
    });
  });

  it("text with a lone surrogate never shares a key with its U+FFFD spelling, even past the hash limit", () => {
    const long = "é".repeat(512); // 1,024 bytes of slug: the key is hashed
    const broken = decodeEvent(event("article.completed", { userId: "x\ud800", articleSlug: long }));
    const replaced = decodeEvent(event("article.completed", { userId: "x\ufffd", articleSlug: long }));
    expect(broken).toMatchObject({ ok: false, park: { code: "invalid_event" } });
    expect(replaced).toMatchObject({ ok: true, award: { intentKey: expect.stringMatching(/^sha256:/) } });
  });

  it("clips reasons to 1,000 characters", () => {
    const reason = parkReason("invalid_event", "é".repeat(5000)).reason;
    expect([...reason].length).toBe(1000);
    expect(reason.endsWith("…")).toBe(true);
    expect(parkReason("invalid_event", "short").reason).toBe("short");
    const exactly = "é".repeat(1000);
    expect(parkReason("invalid_event", exactly).reason).toBe(exactly);
  });

  it("names every problem, separated by semicolons, and the time's exact fault", () => {
    expect(decodeEvent(event("article.shared", { channel: "x" }))).toEqual({
      ok: false,
      park: {
        code: "invalid_event",
        reason:
          "data.userId: Invalid input: expected string, received undefined; data.articleSlug: Invalid input: expected string, received undefined",
      },
    });
    expect(decodeEvent(event("signup.completed", { userId: "u" }, { time: "yesterday" }))).toMatchObject({
      park: { reason: "time: must be an RFC 3339 date-time, e.g. 2026-11-29T10:00:00Z" },
    });
    expect(
      decodeEvent(event("signup.completed", { userId: "u" }, { time: "2026-02-30T10:00:00Z" })),
    ).toMatchObject({ park: { reason: "time: must be a real calendar date and time" } });
  });

  it("a body of JSON null, or an EventBridge detail of null, is an invalid event, not a crash", () => {
    expect(decodeEvent("null")).toMatchObject({ ok: false, park: { code: "invalid_event" } });
    expect(
      decodeEvent(JSON.stringify({ "detail-type": "signup.completed", source: "s", id: "i", detail: null })),
    ).toEqual({
      ok: false,
      park: { code: "invalid_event", reason: "in the EventBridge event: detail: must be an object" },
    });
  });
});

describe("validatePublished: what a producer may send", () => {
  const published = (type: string, data: unknown) => JSON.parse(event(type, data)) as unknown;

  it("a built-in type is checked in full; any other type name needs only data.userId", () => {
    expect(validatePublished(published("article.completed", { userId: "u", articleSlug: "a" }))).toEqual({
      ok: true,
    });
    expect(validatePublished(published("article.completed", { userId: "u" }))).toMatchObject({ ok: false });
    expect(validatePublished(published("podcast.listened", { userId: "u", minutes: 5 }))).toEqual({
      ok: true,
    });
    expect(validatePublished(published("podcast.listened", { minutes: 5 }))).toMatchObject({
      ok: false,
      issues: [{ path: "data.userId" }],
    });
  });

  it("never a reward.* type (the bus's own announcements), nor a name that is no type name", () => {
    for (const type of ["reward.granted", "reward.achieved", "Article Liked"])
      expect(validatePublished(published(type, { userId: "u" }))).toEqual({
        ok: false,
        issues: [
          { path: "type", message: `"${type}" is no event type name: dotted lowercase words, not reward.*` },
        ],
      });
  });
});
