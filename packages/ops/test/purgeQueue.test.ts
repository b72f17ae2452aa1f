import { GetQueueAttributesCommand, type PurgeQueueCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { purgeQueue } from "../src/dlq/purgeQueue";

describe("purgeQueue, with a fake SQS client", () => {
  it("counts what the queue holds (visible, in flight, delayed), then purges it", async () => {
    const sent: unknown[] = [];
    const sqs = {
      async send(command: unknown) {
        sent.push(command);
        if (command instanceof GetQueueAttributesCommand)
          return {
            Attributes: {
              ApproximateNumberOfMessages: "3",
              ApproximateNumberOfMessagesNotVisible: "2",
              ApproximateNumberOfMessagesDelayed: "1",
            },
          };
        return {};
      },
    } as unknown as SQSClient;
    expect(await purgeQueue(sqs, "https://sqs/q")).toEqual({ purged: 6 });
    expect(sent.map((command) => (command as object).constructor.name)).toEqual([
      "GetQueueAttributesCommand",
      "PurgeQueueCommand",
    ]);
    expect((sent[1] as PurgeQueueCommand).input).toEqual({ QueueUrl: "https://sqs/q" });
  });
});
