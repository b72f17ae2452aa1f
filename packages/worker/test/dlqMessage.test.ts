import type { SQSMessageAttributes } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { sqsRecord } from "../../../tests/support/lambdaEvents";
import { buildDlqMessage, MAX_MESSAGE_ATTRIBUTES } from "../src";

const now = new Date("2026-11-29T10:00:00.000Z");
const park = { code: "invalid_json" as const, reason: "body is not JSON" };

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

  it("never exceeds SQS's 10 attributes: extra originals are named in the reason", () => {
    const many: SQSMessageAttributes = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`a${i}`, { dataType: "String", stringValue: String(i) }]),
    );
    const message = buildDlqMessage(sqsRecord("{", { messageAttributes: many }), park, now, false);
    expect(Object.keys(message.MessageAttributes)).toHaveLength(MAX_MESSAGE_ATTRIBUTES);
    expect(message.MessageAttributes["rewards.reason"]?.StringValue).toBe(
      "body is not JSON (attributes not copied: a6, a7)",
    );
  });

  it("a replayed parked message is re-parked with fresh rewards.* attributes, not duplicates", () => {
    const record = sqsRecord("{", {
      messageAttributes: { "rewards.error": { dataType: "String", stringValue: "old" } },
    });
    const message = buildDlqMessage(record, park, now, false);
    expect(message.MessageAttributes["rewards.error"]?.StringValue).toBe("invalid_json");
  });

  it("a FIFO DLQ gets the group and a deduplication id", () => {
    const record = sqsRecord("{", { messageId: "m-2", groupId: "g" });
    expect(buildDlqMessage(record, park, now, true)).toMatchObject({
      MessageGroupId: "g",
      MessageDeduplicationId: "m-2",
    });
  });
});
