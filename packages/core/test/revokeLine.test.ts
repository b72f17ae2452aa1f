import { describe, expect, it } from "vitest";
import { decodeEvent, intentKey, parseRevokeLine } from "../src/domain";

const event = {
  specversion: "1.0",
  id: "evt-1",
  source: "/t",
  type: "article.completed",
  time: "2026-12-01T10:00:00Z",
  data: { userId: "u#1", articleSlug: "a%b" },
};

describe("parseRevokeLine", () => {
  it("an event's intent key is the worker's (escaped parts)", () => {
    const text = JSON.stringify(event);
    const decoded = decodeEvent(text);
    if (!decoded.ok) throw new Error("fixture");
    expect(parseRevokeLine(text)).toEqual({ ok: true, intentKey: "u%231#a%25b#article.completed" });
    expect(parseRevokeLine(text)).toEqual({ ok: true, intentKey: decoded.award.intentKey });
  });

  it("unwraps what the worker unwraps (an SNS notification, an EventBridge event, both)", () => {
    const sns = JSON.stringify({ Type: "Notification", MessageId: "n-1", Message: JSON.stringify(event) });
    // EventBridge: `detail-type` the type, `detail` the data.
    const bus = JSON.stringify({
      version: "0",
      id: "b-1",
      "detail-type": "article.completed",
      source: "s",
      time: event.time,
      detail: event.data,
    });
    const snsOfBus = JSON.stringify({ Type: "Notification", MessageId: "n-2", Message: bus });
    for (const text of [sns, bus, snsOfBus])
      expect(parseRevokeLine(text)).toEqual({ ok: true, intentKey: "u%231#a%25b#article.completed" });
    // A wrapper's problem is named with its layer, as the worker names it.
    expect(parseRevokeLine(JSON.stringify({ Type: "Notification", Message: 7 }))).toEqual({
      ok: false,
      reason: "in the SNS notification: Message: must be a string",
    });
  });

  it("a line naming the intent key is taken as it is", () => {
    const key = intentKey(["u1", "signup.completed"]);
    expect(parseRevokeLine(JSON.stringify({ intentKey: key }))).toEqual({
      ok: true,
      intentKey: "u1#signup.completed",
    });
    expect(parseRevokeLine('{"intentKey":"sha256:abc"}')).toEqual({ ok: true, intentKey: "sha256:abc" });
  });

  it("says why a line names no intent", () => {
    expect(parseRevokeLine("nope")).toEqual({
      ok: false,
      reason: `not JSON: Unexpected token 'o', "nope" is not valid JSON`,
    });
    expect(parseRevokeLine('{"intentKey":""}')).toEqual({
      ok: false,
      reason: "intentKey: must not be empty",
    });
    expect(parseRevokeLine('{"intentKey":7}')).toEqual({
      ok: false,
      reason: "intentKey: Invalid input: expected string, received number",
    });
    expect(parseRevokeLine('{"intentKey":"k","userId":"u"}')).toEqual({
      ok: false,
      reason: 'Unrecognized key: "userId"',
    });
    expect(parseRevokeLine(JSON.stringify({ ...event, type: "article.opened" }))).toEqual({
      ok: false,
      reason: 'type: no reward rule for type "article.opened"',
    });
    // JSON that is no object is judged as the worker judges it (never looked into for a key).
    for (const text of ["7", '"intentKey"', "true"])
      expect(parseRevokeLine(text)).toEqual({
        ok: false,
        reason: `Invalid input: expected object, received ${typeof JSON.parse(text)}`,
      });
    expect(parseRevokeLine("null")).toMatchObject({ ok: false });
    expect(parseRevokeLine("[]")).toMatchObject({ ok: false });
  });
});
