import {
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
  originalAttributes,
  replayAttributes,
  TooLargeToPark,
} from "@rewards/core";
import { sqsRecord as lambdaRecord, type RecordOptions } from "@rewards/testing";
import type { SQSMessageAttributes } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { parkedMessageOf } from "../src/function/parkedMessageOf";

const now = new Date("2026-11-29T10:00:00.000Z");
const SENT = "2026-11-29T09:00:00.000Z";
/** A record first sent at SENT: parking records that as rewards.firstSentAt. */
const sqsRecord = (body: string, options: RecordOptions = {}) => {
  const record = lambdaRecord(body, options);
  record.attributes.SentTimestamp = String(Date.parse(SENT));
  return record;
};
const firstSentAt = { "rewards.firstSentAt": { DataType: "String", StringValue: SENT } };
const park = { code: "invalid_json" as const, reason: "body is not JSON" };
const stringAttributes = (count: number): SQSMessageAttributes =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`a${i}`, { dataType: "String", stringValue: `value ${i}` }]),
  );

describe("parkedMessageOf", () => {
  it("keeps the body and the original attributes, and adds the five rewards.* ones", () => {
    const record = sqsRecord("{", {
      messageId: "m-1",
      messageAttributes: { type: { dataType: "String", stringValue: "article.completed" } },
    });
    expect(parkedMessageOf(record, park, now, false)).toEqual({
      MessageBody: "{",
      MessageAttributes: {
        type: { DataType: "String", StringValue: "article.completed" },
        "rewards.error": { DataType: "String", StringValue: "invalid_json" },
        "rewards.reason": { DataType: "String", StringValue: "body is not JSON" },
        "rewards.sourceMessageId": { DataType: "String", StringValue: "m-1" },
        "rewards.parkedAt": { DataType: "String", StringValue: "2026-11-29T10:00:00.000Z" },
        ...firstSentAt,
      },
    });
  });

  it("without a SentTimestamp or rewards.firstSentAt (a hand-made event) there is no firstSentAt to record", () => {
    const record = sqsRecord("{");
    delete (record.attributes as { SentTimestamp?: string }).SentTimestamp;
    expect(
      parkedMessageOf(record, park, now, false).MessageAttributes["rewards.firstSentAt"],
    ).toBeUndefined();
  });

  it("keeps the rewards.firstSentAt a replayed message came with, not its own SentTimestamp", () => {
    const record = sqsRecord("{", {
      messageAttributes: {
        "rewards.firstSentAt": { dataType: "String", stringValue: "2026-09-01T00:00:00.000Z" },
      },
    });
    expect(parkedMessageOf(record, park, now, false).MessageAttributes["rewards.firstSentAt"]).toEqual({
      DataType: "String",
      StringValue: "2026-09-01T00:00:00.000Z",
    });
  });

  it("five originals fit beside ours; a sixth sends the extras to rewards.overflow", () => {
    const five = parkedMessageOf(
      sqsRecord("{", { messageAttributes: stringAttributes(5) }),
      park,
      now,
      false,
    );
    expect(Object.keys(five.MessageAttributes)).toHaveLength(MAX_MESSAGE_ATTRIBUTES);
    expect(five.MessageAttributes["rewards.overflow"]).toBeUndefined();

    const eight = parkedMessageOf(
      sqsRecord("{", { messageAttributes: stringAttributes(8) }),
      park,
      now,
      false,
    );
    expect(Object.keys(eight.MessageAttributes)).toHaveLength(MAX_MESSAGE_ATTRIBUTES);
    expect(JSON.parse(eight.MessageAttributes["rewards.overflow"]?.StringValue ?? "")).toEqual({
      a4: { DataType: "String", StringValue: "value 4" },
      a5: { DataType: "String", StringValue: "value 5" },
      a6: { DataType: "String", StringValue: "value 6" },
      a7: { DataType: "String", StringValue: "value 7" },
    });
    expect(eight.MessageAttributes["rewards.reason"]?.StringValue).toBe("body is not JSON");
  });

  it("replay restores exactly the original attributes, binary and overflowed ones included", () => {
    const attributes: SQSMessageAttributes = {
      ...stringAttributes(8),
      blob: { dataType: "Binary", binaryValue: Buffer.from([0, 1, 255]).toString("base64") },
      "type.custom": { dataType: "String.custom", stringValue: "x" },
    };
    const record = sqsRecord("{", { messageAttributes: attributes });
    const parked = parkedMessageOf(record, park, now, false);
    const restored = originalAttributes(parked.MessageAttributes);
    expect(Object.keys(restored).sort()).toEqual(Object.keys(attributes).sort());
    expect([...(restored.blob?.BinaryValue ?? [])]).toEqual([0, 1, 255]);
    expect(restored["type.custom"]).toEqual({ DataType: "String.custom", StringValue: "x" });
    expect(restored.a7).toEqual({ DataType: "String", StringValue: "value 7" });
  });

  it("near 1 MiB: drops the overflow, then originals, then shortens the reason, naming what was dropped", () => {
    const attributes = stringAttributes(8);
    const originalsSize = messageSize(
      "",
      parkedMessageOf(sqsRecord("", { messageAttributes: attributes }), park, now, false).MessageAttributes,
    );
    const body = "x".repeat(MAX_MESSAGE_BYTES - originalsSize + 60);
    const message = parkedMessageOf(sqsRecord(body, { messageAttributes: attributes }), park, now, false);
    expect(messageSize(body, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(message.MessageAttributes["rewards.overflow"]).toBeUndefined();
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toMatch(
      /^body is not JSON \(dropped to fit SQS's 1 MiB limit: a4, a5, a6, a7/,
    );
    expect(message.MessageAttributes.a0).toBeDefined();
  });

  it("at the very limit keeps rewards.error and rewards.sourceMessageId, with a reason cut to fit", () => {
    const record = sqsRecord("", { messageId: "m-9", messageAttributes: stringAttributes(3) });
    const bare = messageSize("", {
      "rewards.error": { DataType: "String", StringValue: "invalid_json" },
      "rewards.sourceMessageId": { DataType: "String", StringValue: "m-9" },
    });
    const body = "x".repeat(MAX_MESSAGE_BYTES - bare - 40);
    const message = parkedMessageOf({ ...record, body }, park, now, false);
    expect(messageSize(body, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(message.MessageAttributes["rewards.error"]?.StringValue).toBe("invalid_json");
    expect(message.MessageAttributes["rewards.sourceMessageId"]?.StringValue).toBe("m-9");
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toBe("body is not JSON …");
    expect(Object.keys(message.MessageAttributes).filter((n) => !n.startsWith("rewards."))).toEqual([]);
  });

  it("rewards.firstSentAt outlives the reason: it goes only when nothing else would fit", () => {
    const withFirstSentAt = messageSize("", {
      "rewards.error": { DataType: "String", StringValue: "invalid_json" },
      "rewards.sourceMessageId": { DataType: "String", StringValue: "m-8" },
      ...firstSentAt,
    });
    const body = "x".repeat(MAX_MESSAGE_BYTES - withFirstSentAt - 2);
    const message = parkedMessageOf(sqsRecord(body, { messageId: "m-8" }), park, now, false);
    expect(Object.keys(message.MessageAttributes).sort()).toEqual([
      "rewards.error",
      "rewards.firstSentAt",
      "rewards.sourceMessageId",
    ]);
  });

  it("a body too large even for rewards.error and rewards.sourceMessageId cannot be parked", () => {
    const record = sqsRecord("x".repeat(MAX_MESSAGE_BYTES - 50));
    expect(() => parkedMessageOf(record, park, now, false)).toThrow(TooLargeToPark);
  });

  it("a replayed parked message is re-parked with fresh rewards.* attributes; its replay count stays", () => {
    const record = sqsRecord("{", {
      messageAttributes: {
        "rewards.error": { dataType: "String", stringValue: "old" },
        "rewards.replayCount": { dataType: "Number", stringValue: "2" },
      },
    });
    const message = parkedMessageOf(record, park, now, false);
    expect(message.MessageAttributes["rewards.error"]?.StringValue).toBe("invalid_json");
    expect(message.MessageAttributes["rewards.replayCount"]).toEqual({
      DataType: "Number",
      StringValue: "2",
    });
  });

  it("a FIFO DLQ gets the group and a deduplication id", () => {
    const record = sqsRecord("{", { messageId: "m-2", groupId: "g" });
    expect(parkedMessageOf(record, park, now, true)).toMatchObject({
      MessageGroupId: "g",
      MessageDeduplicationId: "m-2",
    });
  });

  it("binary attributes count as their base64 text, as SQS's JSON protocol carries them", () => {
    expect(messageSize("", { b: { DataType: "Binary", BinaryValue: new Uint8Array(4) } })).toBe(1 + 6 + 8);
    expect(messageSize("", { b: { DataType: "Binary", BinaryValue: new Uint8Array(3) } })).toBe(1 + 6 + 4);
    // 3,000 raw bytes are 4,000 in base64: a body that leaves room for the raw bytes only must drop it.
    const attributes = { blob: { dataType: "Binary", binaryValue: Buffer.alloc(3000).toString("base64") } };
    const withoutBlob = messageSize("", parkedMessageOf(sqsRecord(""), park, now, false).MessageAttributes);
    const body = "x".repeat(MAX_MESSAGE_BYTES - withoutBlob - (4 + 6 + 3000) - 10);
    const message = parkedMessageOf(sqsRecord(body, { messageAttributes: attributes }), park, now, false);
    expect(message.MessageAttributes.blob).toBeUndefined();
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toBe(
      "body is not JSON (dropped to fit SQS's 1 MiB limit: blob)",
    );
  });

  it("when the reason and parkedAt cannot both fit, the reason stays and parkedAt goes", () => {
    const record = sqsRecord("", { messageId: "m-5" });
    const required = messageSize("", {
      "rewards.error": { DataType: "String", StringValue: "invalid_json" },
      "rewards.sourceMessageId": { DataType: "String", StringValue: "m-5" },
      ...firstSentAt,
    });
    const parkedAt = messageSize("", {
      "rewards.parkedAt": { DataType: "String", StringValue: now.toISOString() },
    });
    // Room for parkedAt and 10 bytes more: parkedAt alone, or the whole reason alone.
    const body = "x".repeat(MAX_MESSAGE_BYTES - required - parkedAt - 10);
    const message = parkedMessageOf({ ...record, body }, park, now, false);
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toBe("body is not JSON");
    expect(message.MessageAttributes["rewards.parkedAt"]).toBeUndefined();
    expect(messageSize(body, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });

  it("never carries an earlier park's rewards.* attributes as originals", () => {
    const record = sqsRecord("{", {
      messageId: "m-6",
      messageAttributes: {
        ...stringAttributes(5),
        "rewards.reason": { dataType: "String", stringValue: "an old reason" },
        "rewards.custom": { dataType: "String", stringValue: "ours, from an older version" },
      },
    });
    expect(Object.keys(parkedMessageOf(record, park, now, false).MessageAttributes).sort()).toEqual([
      "a0",
      "a1",
      "a2",
      "a3",
      "a4",
      "rewards.error",
      "rewards.firstSentAt",
      "rewards.parkedAt",
      "rewards.reason",
      "rewards.sourceMessageId",
    ]);
  });

  it("keeps a binary attribute exactly, with no string value beside it", () => {
    const record = sqsRecord("{", {
      messageAttributes: {
        blob: { dataType: "Binary", binaryValue: Buffer.from([7, 8]).toString("base64") },
      },
    });
    expect(parkedMessageOf(record, park, now, false).MessageAttributes.blob).toStrictEqual({
      DataType: "Binary",
      BinaryValue: Buffer.from([7, 8]),
    });
  });

  describe("the reason, cut to the last byte", () => {
    // The bytes left for the reason's value once the body, error, source id and parkedAt are counted.
    const reasonRoom = (room: number) => {
      const bare = messageSize("", {
        "rewards.error": { DataType: "String", StringValue: "invalid_json" },
        "rewards.sourceMessageId": { DataType: "String", StringValue: "m-7" },
        "rewards.parkedAt": { DataType: "String", StringValue: now.toISOString() },
        ...firstSentAt,
        "rewards.reason": { DataType: "String", StringValue: "" },
      });
      const body = "x".repeat(MAX_MESSAGE_BYTES - bare - room);
      return parkedMessageOf(sqsRecord(body, { messageId: "m-7" }), park, now, false).MessageAttributes;
    };

    it("a reason that just fits is kept whole, beside parkedAt", () => {
      const attributes = reasonRoom(Buffer.byteLength("body is not JSON"));
      expect(attributes["rewards.reason"]?.StringValue).toBe("body is not JSON");
      expect(attributes["rewards.parkedAt"]?.StringValue).toBe(now.toISOString());
    });

    it("one byte short, it is cut and marked, and parkedAt stays", () => {
      const attributes = reasonRoom(Buffer.byteLength("body is not JSON") - 1);
      expect(attributes["rewards.reason"]?.StringValue).toBe("body is not …");
      expect(attributes["rewards.parkedAt"]).toBeDefined();
    });

    it("room for the mark alone gives the mark", () => {
      expect(reasonRoom(3)["rewards.reason"]?.StringValue).toBe("…");
    });

    it("no room even for the mark: parkedAt goes to make room for the reason", () => {
      const attributes = reasonRoom(2);
      expect(attributes["rewards.reason"]?.StringValue).toBe("body is not JSON");
      expect(attributes["rewards.parkedAt"]).toBeUndefined();
    });
  });

  it("too large to park says how large, and what SQS allows", () => {
    const record = sqsRecord("x".repeat(MAX_MESSAGE_BYTES - 50));
    expect(() => parkedMessageOf(record, park, now, false)).toThrow(
      `the body (${MAX_MESSAGE_BYTES - 50} bytes) with rewards.error and rewards.sourceMessageId exceeds SQS's 1048576-byte limit`,
    );
  });

  it("a FIFO DLQ behind a standard queue groups what has no group of its own under 'parked'", () => {
    expect(parkedMessageOf(sqsRecord("{", { messageId: "m-3" }), park, now, true)).toMatchObject({
      MessageGroupId: "parked",
      MessageDeduplicationId: "m-3",
    });
    expect(parkedMessageOf(sqsRecord("{"), park, now, false).MessageGroupId).toBeUndefined();
  });
});

describe("replay's attributes", () => {
  it("are the originals without overflow, as they came", () => {
    expect(
      originalAttributes({
        type: { DataType: "String", StringValue: "t" },
        "rewards.error": { DataType: "String", StringValue: "invalid_json" },
      }),
    ).toEqual({ type: { DataType: "String", StringValue: "t" } });
  });

  it("count replays: one more than the parked copy says, one when it says nothing or nonsense", () => {
    const count = (value?: string) =>
      replayAttributes({
        type: { DataType: "String", StringValue: "t" },
        "rewards.error": { DataType: "String", StringValue: "invalid_json" },
        ...(value === undefined ? {} : { "rewards.replayCount": { DataType: "Number", StringValue: value } }),
      });
    expect(count("2")).toEqual({
      type: { DataType: "String", StringValue: "t" },
      "rewards.replayCount": { DataType: "Number", StringValue: "3" },
    });
    expect(count()["rewards.replayCount"]).toEqual({ DataType: "Number", StringValue: "1" });
    expect(replayAttributes({}, "2026-09-01T00:00:00.000Z")).toEqual({
      "rewards.replayCount": { DataType: "Number", StringValue: "1" },
      "rewards.firstSentAt": { DataType: "String", StringValue: "2026-09-01T00:00:00.000Z" },
    });
    expect(count("lots")["rewards.replayCount"]).toEqual({ DataType: "Number", StringValue: "1" });
  });
});
