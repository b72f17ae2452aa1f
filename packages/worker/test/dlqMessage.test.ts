import {
  MAX_MESSAGE_ATTRIBUTES,
  MAX_MESSAGE_BYTES,
  messageSize,
  originalAttributes,
  TooLargeToPark,
} from "@rewards/core";
import { sqsRecord } from "@rewards/testing";
import type { SQSMessageAttributes } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { buildDlqMessage } from "../src/function/dlqMessage";

const now = new Date("2026-11-29T10:00:00.000Z");
const park = { code: "invalid_json" as const, reason: "body is not JSON" };
const stringAttributes = (count: number): SQSMessageAttributes =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`a${i}`, { dataType: "String", stringValue: `value ${i}` }]),
  );

describe("buildDlqMessage", () => {
  it("keeps the body and the original attributes, and adds the four rewards.* ones", () => {
    const record = sqsRecord("{", {
      messageId: "m-1",
      messageAttributes: { type: { dataType: "String", stringValue: "article.completed" } },
    });
    expect(buildDlqMessage(record, park, now, false)).toEqual({
      MessageBody: "{",
      MessageAttributes: {
        type: { DataType: "String", StringValue: "article.completed" },
        "rewards.error": { DataType: "String", StringValue: "invalid_json" },
        "rewards.reason": { DataType: "String", StringValue: "body is not JSON" },
        "rewards.sourceMessageId": { DataType: "String", StringValue: "m-1" },
        "rewards.parkedAt": { DataType: "String", StringValue: "2026-11-29T10:00:00.000Z" },
      },
    });
  });

  it("six originals fit beside ours; a seventh sends the extras to rewards.overflow", () => {
    const six = buildDlqMessage(sqsRecord("{", { messageAttributes: stringAttributes(6) }), park, now, false);
    expect(Object.keys(six.MessageAttributes)).toHaveLength(MAX_MESSAGE_ATTRIBUTES);
    expect(six.MessageAttributes["rewards.overflow"]).toBeUndefined();

    const eight = buildDlqMessage(
      sqsRecord("{", { messageAttributes: stringAttributes(8) }),
      park,
      now,
      false,
    );
    expect(Object.keys(eight.MessageAttributes)).toHaveLength(MAX_MESSAGE_ATTRIBUTES);
    expect(JSON.parse(eight.MessageAttributes["rewards.overflow"]?.StringValue ?? "")).toEqual({
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
    const parked = buildDlqMessage(record, park, now, false);
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
      buildDlqMessage(sqsRecord("", { messageAttributes: attributes }), park, now, false).MessageAttributes,
    );
    const body = "x".repeat(MAX_MESSAGE_BYTES - originalsSize + 60);
    const message = buildDlqMessage(sqsRecord(body, { messageAttributes: attributes }), park, now, false);
    expect(messageSize(body, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(message.MessageAttributes["rewards.overflow"]).toBeUndefined();
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toMatch(
      /^body is not JSON \(dropped to fit SQS's 1 MiB limit: a5, a6, a7/,
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
    const message = buildDlqMessage({ ...record, body }, park, now, false);
    expect(messageSize(body, message.MessageAttributes)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(message.MessageAttributes["rewards.error"]?.StringValue).toBe("invalid_json");
    expect(message.MessageAttributes["rewards.sourceMessageId"]?.StringValue).toBe("m-9");
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toBe("body is not JSON …");
    expect(Object.keys(message.MessageAttributes).filter((n) => !n.startsWith("rewards."))).toEqual([]);
  });

  it("a body too large even for rewards.error and rewards.sourceMessageId cannot be parked", () => {
    const record = sqsRecord("x".repeat(MAX_MESSAGE_BYTES - 50));
    expect(() => buildDlqMessage(record, park, now, false)).toThrow(TooLargeToPark);
  });

  it("a replayed parked message is re-parked with fresh rewards.* attributes; its replay count stays", () => {
    const record = sqsRecord("{", {
      messageAttributes: {
        "rewards.error": { dataType: "String", stringValue: "old" },
        "rewards.replayCount": { dataType: "Number", stringValue: "2" },
      },
    });
    const message = buildDlqMessage(record, park, now, false);
    expect(message.MessageAttributes["rewards.error"]?.StringValue).toBe("invalid_json");
    expect(message.MessageAttributes["rewards.replayCount"]).toEqual({
      DataType: "Number",
      StringValue: "2",
    });
  });

  it("a FIFO DLQ gets the group and a deduplication id", () => {
    const record = sqsRecord("{", { messageId: "m-2", groupId: "g" });
    expect(buildDlqMessage(record, park, now, true)).toMatchObject({
      MessageGroupId: "g",
      MessageDeduplicationId: "m-2",
    });
  });
});
