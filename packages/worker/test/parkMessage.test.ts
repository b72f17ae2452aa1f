import type { SendMessageCommandInput, SQSClient } from "@aws-sdk/client-sqs";
import { NO_DEADLINE } from "@rewards/core/aws";
import { sqsRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { parkMessage } from "../src/function/parkMessage";

/**
 * What parking sends, captured: real SQS refuses a MessageGroupId on a standard queue and
 * requires one on a FIFO queue, but the local SQS accepts both, so the stack cannot tell.
 */
function capturingSqs() {
  const sent: SendMessageCommandInput[] = [];
  const sqs = {
    async send(command: { input: SendMessageCommandInput }) {
      sent.push(command.input);
      return { MessageId: "parked" };
    },
  } as unknown as SQSClient;
  return { sent, sqs };
}

describe("parkMessage", () => {
  const park = { code: "invalid_json" as const, reason: "body is not JSON" };
  const clock = () => Date.parse("2026-11-29T10:00:00.000Z");

  it("sends a standard DLQ no FIFO fields", async () => {
    const { sent, sqs } = capturingSqs();
    const dlqUrl = "http://localhost/000000000000/rewards-dlq";
    await parkMessage({ sqs, dlqUrl, clock }, sqsRecord("{", { messageId: "m-1" }), park, NO_DEADLINE);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.QueueUrl).toBe(dlqUrl);
    expect(sent[0]?.MessageGroupId).toBeUndefined();
    expect(sent[0]?.MessageDeduplicationId).toBeUndefined();
    expect(sent[0]?.MessageAttributes?.["rewards.parkedAt"]?.StringValue).toBe("2026-11-29T10:00:00.000Z");
  });

  it("sends a FIFO DLQ the message's group and a deduplication id", async () => {
    const { sent, sqs } = capturingSqs();
    const record = sqsRecord("{", { messageId: "m-1" });
    record.attributes.MessageGroupId = "user-7";
    await parkMessage(
      { sqs, dlqUrl: "http://localhost/000000000000/rewards-dlq.fifo", clock },
      record,
      park,
      NO_DEADLINE,
    );
    expect(sent[0]?.MessageGroupId).toBe("user-7");
    expect(sent[0]?.MessageDeduplicationId).toEqual(expect.any(String));
  });

  it("throws, sending nothing, when no DLQ is configured", async () => {
    const { sent, sqs } = capturingSqs();
    await expect(parkMessage({ sqs, clock }, sqsRecord("{"), park, NO_DEADLINE)).rejects.toThrow(
      "DLQ_URL is not set",
    );
    expect(sent).toEqual([]);
  });
});
