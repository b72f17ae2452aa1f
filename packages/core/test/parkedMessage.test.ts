import type { Message } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { buildParkedMessage, PARK_ATTRIBUTES, replayAttributes } from "../src/domain/park/parkedMessage";
import { PARK_CODES, parkReason } from "../src/domain/park/parkReason";
import { DLQ_ERRORS, REDRIVEN, readParkedMessage } from "../src/domain/park/readParkedMessage";

const now = new Date("2026-12-01T10:00:00.000Z");
const SENT = "2026-12-01T09:00:00.000Z";
const event = { type: "article.completed", data: { userId: "u-1", articleId: "a-1" } };
const source = {
  body: JSON.stringify(event),
  messageId: "m-1",
  attributes: { origin: { DataType: "String", StringValue: "tests" } },
  firstSentAt: SENT,
};

/** The parked copy as `rewards dlq` receives it from the DLQ. */
function received(
  written: ReturnType<typeof buildParkedMessage>,
  extra: Partial<Message["Attributes"]> = {},
): Message {
  return {
    MessageId: "dlq-1",
    Body: written.MessageBody,
    MessageAttributes: written.MessageAttributes,
    Attributes: {
      ApproximateReceiveCount: "3",
      SentTimestamp: String(Date.parse(now.toISOString())),
      ...extra,
    },
  };
}

describe("the DLQ format: parkedMessage.ts writes, readParkedMessage.ts reads", () => {
  it("reads back what the worker wrote: the code, reason, source, park time, first sending, event", () => {
    const written = buildParkedMessage(source, parkReason("stale", "too old"), now, false);
    expect(written.MessageAttributes).toMatchObject({
      origin: source.attributes.origin,
      [PARK_ATTRIBUTES.error]: { StringValue: "stale" },
      [PARK_ATTRIBUTES.sourceMessageId]: { StringValue: "m-1" },
    });
    expect(readParkedMessage(received(written))).toEqual({
      messageId: "dlq-1",
      sourceMessageId: "m-1",
      error: "stale",
      reason: "too old",
      parkedAt: now.toISOString(),
      firstSentAt: SENT,
      firstSentAtAttribute: true,
      replayCount: 0,
      type: "article.completed",
      userId: "u-1",
      receiveCount: 3,
      body: source.body,
    });
  });

  it("counts replays: a re-parked replay reads one higher", () => {
    const replayed = replayAttributes(
      buildParkedMessage(source, parkReason("rejected", "no"), now, true).MessageAttributes,
    );
    const reparked = buildParkedMessage(
      { ...source, attributes: replayed },
      parkReason("rejected", "no"),
      now,
      true,
    );
    expect(reparked).toMatchObject({ MessageGroupId: "parked", MessageDeduplicationId: "m-1" });
    expect(readParkedMessage(received(reparked)).replayCount).toBe(1);
  });

  it("reads a copy the redrive policy moved (no rewards.* attributes) as redriven, first sent when it was sent", () => {
    const parked = readParkedMessage({
      MessageId: "dlq-2",
      Body: "not json",
      Attributes: { SentTimestamp: String(Date.parse(SENT)) },
    });
    expect(parked).toMatchObject({
      sourceMessageId: "dlq-2",
      error: REDRIVEN,
      reason: "moved by the queue's redrive policy after repeated failures",
      firstSentAt: SENT,
      firstSentAtAttribute: false,
      receiveCount: 0,
    });
    expect(parked).not.toHaveProperty("type");
  });

  it("takes the type and user from the body where it says them: unwrapped, or a message attribute's type", () => {
    const read = (body: string, attributes: Message["MessageAttributes"] = {}) =>
      readParkedMessage({ MessageId: "m", Body: body, MessageAttributes: attributes });
    const fields = (parked: ReturnType<typeof read>) => ({ type: parked.type, userId: parked.userId });
    const sns = JSON.stringify({ Type: "Notification", Message: JSON.stringify(event), TopicArn: "arn" });
    expect(fields(read(sns))).toEqual({ type: "article.completed", userId: "u-1" });
    expect(
      fields(read(source.body, { type: { DataType: "String", StringValue: "from.attribute" } })),
    ).toEqual({
      type: "from.attribute",
      userId: "u-1",
    });
    for (const body of ["null", "3", '"text"', "{", JSON.stringify({ type: 7, data: { userId: 8 } })])
      expect(fields(read(body)), body).toEqual({ type: undefined, userId: undefined });
    expect(fields(read(JSON.stringify({ type: "t" })))).toEqual({ type: "t", userId: undefined });
    expect(readParkedMessage({})).toMatchObject({
      messageId: "",
      sourceMessageId: "",
      body: "",
      parkedAt: "",
    });
  });

  it("names every error once: the park codes, then redriven", () => {
    expect(DLQ_ERRORS).toEqual([...PARK_CODES, "redriven"]);
    expect(new Set(DLQ_ERRORS).size).toBe(DLQ_ERRORS.length);
  });
});
