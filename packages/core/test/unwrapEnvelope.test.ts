import { describe, expect, it } from "vitest";
import { decodeEvent, unwrapEnvelope } from "../src/domain";

const event = {
  specversion: "1.0",
  id: "evt-1",
  source: "/reader/web",
  type: "article.completed",
  time: "2026-11-29T10:00:00Z",
  data: { userId: "user123", articleSlug: "idempotent-writes" },
};

/** An SNS notification as SQS receives it with raw message delivery off. */
const sns = (message: string) =>
  JSON.stringify({
    Type: "Notification",
    MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
    TopicArn: "arn:aws:sns:us-east-1:123456789012:reading-events",
    Message: message,
    Timestamp: "2026-11-29T10:00:01.000Z",
    SignatureVersion: "1",
    Signature: "EXAMPLE",
    SigningCertURL: "https://sns.us-east-1.amazonaws.com/cert.pem",
    UnsubscribeURL: "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe",
  });

/** An EventBridge event as an untransformed rule target receives it. */
const eventBridge = (detailType: string, detail: unknown) => ({
  version: "0",
  id: "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
  "detail-type": detailType,
  source: "com.example.reader",
  account: "123456789012",
  time: "2026-11-29T10:00:00Z",
  region: "us-east-1",
  resources: [],
  detail,
});

const KEY = "user123#idempotent-writes#article.completed";

describe("wrapped events: SNS notifications and EventBridge events", () => {
  it("raw, SNS-wrapped and EventBridge-wrapped copies of one happening have one intent key", () => {
    const raw = decodeEvent(JSON.stringify(event));
    const viaSns = decodeEvent(sns(JSON.stringify(event)));
    const viaEventBridge = decodeEvent(JSON.stringify(eventBridge("article.completed", event.data)));
    const viaBoth = decodeEvent(sns(JSON.stringify(eventBridge("article.completed", event.data))));
    for (const decoded of [raw, viaSns, viaEventBridge, viaBoth]) {
      expect(decoded).toMatchObject({ ok: true, award: { intentKey: KEY, amount: 20, userId: "user123" } });
    }
    expect(viaEventBridge).toMatchObject({ award: { eventId: "6a7e8feb-b491-4cf7-a9f1-bf3703467718" } });
  });

  it.each([
    [
      "an SNS Message that is not JSON",
      sns("not json"),
      "invalid_json",
      /^in the SNS notification: Message is not JSON/,
    ],
    [
      "an SNS Message that is not a string",
      JSON.stringify({ Type: "Notification", Message: 5 }),
      "invalid_event",
      /^in the SNS notification: Message: must be a string/,
    ],
    [
      "an SNS-wrapped event with a bad userId",
      sns(JSON.stringify({ ...event, data: { userId: "", articleSlug: "a" } })),
      "invalid_event",
      /^in the SNS notification: data\.userId: /,
    ],
    [
      "an unknown EventBridge detail-type",
      JSON.stringify(eventBridge("article.liked", { userId: "u" })),
      "unknown_type",
      /^in the EventBridge event: type: no reward rule for type "article.liked"/,
    ],
    [
      "an EventBridge detail that is not an object",
      JSON.stringify(eventBridge("article.completed", "nope")),
      "invalid_event",
      /^in the EventBridge event: detail: must be an object/,
    ],
    [
      "an EventBridge event inside SNS missing its slug",
      sns(JSON.stringify(eventBridge("article.completed", { userId: "u" }))),
      "invalid_event",
      /^in the SNS notification → EventBridge event: data\.articleSlug: /,
    ],
  ])("parks %s, naming the layer", (_label, body, code, reason) => {
    const decoded = decodeEvent(body);
    expect(decoded).toMatchObject({ ok: false, park: { code } });
    if (!decoded.ok) expect(decoded.park.reason).toMatch(reason);
  });

  it("a raw event is never taken for a wrapper: an SNS Type other than Notification, or a detail without detail-type", () => {
    const inner = JSON.stringify({ ...event, data: { userId: "someone-else", articleSlug: "other" } });
    const lookalikes = [
      { ...event, Message: inner },
      { ...event, Type: "SubscriptionConfirmation", Message: inner },
      { ...event, detail: { userId: "someone-else", articleSlug: "other" } },
    ];
    for (const body of lookalikes) {
      expect(decodeEvent(JSON.stringify(body))).toMatchObject({ ok: true, award: { intentKey: KEY } });
    }
    expect(unwrapEnvelope({ ...event, Message: inner })).toEqual({
      ok: true,
      event: { ...event, Message: inner },
      layers: [],
    });
    expect(unwrapEnvelope({ "detail-type": "article.completed", detail: event.data })).toMatchObject({
      ok: true,
      layers: ["eventbridge"],
    });
  });
});
