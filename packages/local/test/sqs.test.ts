import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../src";

let stack: LocalStack;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack({ visibilityTimeoutSeconds: 1 });
  sqs = new SQSClient({
    region: stack.env.AWS_REGION,
    endpoint: stack.endpoints.sqs,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
});

afterAll(async () => {
  sqs?.destroy();
  await stack?.stop();
});

async function send(queueUrl: string, bodies: string[]) {
  const { Successful = [], Failed = [] } = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, index) => ({ Id: String(index), MessageBody: body })),
    }),
  );
  expect(Failed).toEqual([]);
  return Successful;
}

async function receive(queueUrl: string, waitTimeSeconds = 0) {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitTimeSeconds,
      MessageSystemAttributeNames: ["ApproximateReceiveCount"],
    }),
  );
  return Messages;
}

async function counts(queueUrl: string) {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
  };
}

describe("SQS on the local stack", () => {
  it("queue URLs point at the endpoint itself", () => {
    expect(stack.resources.queueUrl).toBe(`${stack.endpoints.sqs}/000000000000/rewards-events`);
    expect(stack.resources.dlqUrl).toBe(`${stack.endpoints.sqs}/000000000000/rewards-events-dlq`);
  });

  it("sends, receives and deletes in batches", async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => `batch-${i}`);
    await send(stack.resources.queueUrl, bodies);
    const messages = await receive(stack.resources.queueUrl);
    expect(messages.map((m) => m.Body).sort()).toEqual([...bodies].sort());
    const deleted = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: stack.resources.queueUrl,
        Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
      }),
    );
    expect(deleted.Successful).toHaveLength(10);
    expect(await counts(stack.resources.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
  });

  it("redelivers a message whose visibility timeout expired, then parks it in the DLQ after 5 receives", async () => {
    const [sent] = await send(stack.resources.queueUrl, ["poison"]);
    const receiveCounts: number[] = [];
    for (let round = 1; round <= 5; round++) {
      const [message] = await receive(stack.resources.queueUrl, 5);
      expect(message?.MessageId).toBe(sent?.MessageId);
      receiveCounts.push(Number(message?.Attributes?.ApproximateReceiveCount));
      expect(await receive(stack.resources.queueUrl)).toEqual([]); // invisible while held
    }
    expect(receiveCounts).toEqual([1, 2, 3, 4, 5]);
    // The sixth receive finds the receive count exhausted: SQS moves it to the DLQ instead.
    expect(await receive(stack.resources.queueUrl, 2)).toEqual([]);
    const parked = await receive(stack.resources.dlqUrl, 2);
    expect(parked.map((m) => m.Body)).toEqual(["poison"]);
    expect(await counts(stack.resources.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
  });
});
