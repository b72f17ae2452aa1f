import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core";
import { type LocalStack, startLocalStack } from "@rewards/local";
import { type BatchHandler, type BatchSummary, startPoller } from "@rewards/worker";
import type { SQSEvent } from "aws-lambda";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { drain } from "./support/queues";

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/lambda-sqs-event.aws-docs.json", import.meta.url), "utf8"),
) as SQSEvent;

let stack: LocalStack;
let sqs: SQSClient;
const logger = pino({ level: "silent" });

beforeAll(async () => {
  stack = await startLocalStack({ visibilityTimeoutSeconds: 1 });
  sqs = createSqsClient({ ...stack.env, AWS_REGION: "us-east-1" }, { requestTimeoutMs: 10_000 });
});

afterEach(async () => {
  // stop() aborts long polls in flight; fauxqs keeps serving an aborted poll until its
  // wait ends, so let those expire before the next test sends anything.
  await delay(1200);
  await drain(sqs, stack.resources.queueUrl);
  await drain(sqs, stack.resources.dlqUrl);
});

afterAll(async () => {
  await stack?.stop();
});

const send = (body: string, attributes = {}) =>
  sqs.send(
    new SendMessageCommand({
      QueueUrl: stack.resources.queueUrl,
      MessageBody: body,
      MessageAttributes: attributes,
    }),
  );

/** Polls with `handler` until `until` holds, then stops the poller. */
async function pollUntil(
  handler: BatchHandler,
  until: (batches: BatchSummary[]) => boolean,
  timeoutMs = 15_000,
) {
  const batches: BatchSummary[] = [];
  const poller = await startPoller({
    sqs,
    queueUrl: stack.resources.queueUrl,
    handler,
    logger,
    waitTimeSeconds: 1,
    timeoutMs: 600, // under the 1 s visibility timeout, as AWS advises
    onBatch: (summary) => batches.push(summary),
  });
  const deadline = Date.now() + timeoutMs;
  while (!until(batches) && Date.now() < deadline) await delay(50);
  await poller.stop();
  return batches;
}

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return "array";
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .map(([k, v]) => [k, shapeOf(v)])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  }
  return typeof value;
}

describe("the local poller", () => {
  it("builds records field by field like the SQS event in AWS's Lambda documentation", async () => {
    const documented = fixture.Records[0];
    if (!documented) throw new Error("fixture has no record");
    await send(documented.body, { myAttribute: { DataType: "String", StringValue: "myValue" } });
    let seen: SQSEvent | undefined;
    await pollUntil(
      async (event) => {
        seen = event;
        return { batchItemFailures: [] };
      },
      () => seen !== undefined,
    );
    const record = seen?.Records[0];
    expect(shapeOf(record)).toEqual(shapeOf(documented));
    expect(record?.messageAttributes).toEqual(documented.messageAttributes);
    expect(record?.md5OfBody).toBe(documented.md5OfBody);
    expect(record?.body).toBe(documented.body);
    expect(record?.eventSource).toBe("aws:sqs");
    expect(record?.eventSourceARN).toBe("arn:aws:sqs:us-east-1:000000000000:rewards-events");
    expect(record?.awsRegion).toBe("us-east-1");
    expect(record?.attributes.ApproximateReceiveCount).toBe("1");
  });

  it("deletes acknowledged messages and leaves batchItemFailures to come back", async () => {
    await Promise.all(["keep", "fail"].map((body) => send(body)));
    const deliveries: string[] = [];
    const batches = await pollUntil(
      async (event) => {
        deliveries.push(...event.Records.map((r) => `${r.body}:${r.attributes.ApproximateReceiveCount}`));
        const failing = event.Records.filter(
          (r) => r.body === "fail" && r.attributes.ApproximateReceiveCount === "1",
        );
        return { batchItemFailures: failing.map((r) => ({ itemIdentifier: r.messageId })) };
      },
      () => deliveries.includes("fail:2"),
    );
    expect(deliveries.sort()).toEqual(["fail:1", "fail:2", "keep:1"]);
    expect(batches.reduce((n, b) => n + b.acknowledged, 0)).toBe(2);
  });

  it.each([
    ["throws", async () => Promise.reject(new Error("boom"))],
    [
      "answers with an unknown itemIdentifier",
      async () => ({ batchItemFailures: [{ itemIdentifier: "nope" }] }),
    ],
    ["answers with an empty itemIdentifier", async () => ({ batchItemFailures: [{ itemIdentifier: "" }] })],
    ["runs past its timeout", () => delay(900).then(() => ({ batchItemFailures: [] }))],
  ])("when the handler %s, the whole batch is failed and redelivered", async (_label, misbehave) => {
    await send("victim");
    let calls = 0;
    const batches = await pollUntil(
      async (_event) => {
        calls++;
        return calls === 1 ? misbehave() : { batchItemFailures: [] };
      },
      (b) => b.some((s) => s.acknowledged === 1),
    );
    expect(batches[0]).toMatchObject({ acknowledged: 0, failed: 1, wholeBatchFailure: expect.any(String) });
    expect(batches.at(-1)?.records[0]?.attributes.ApproximateReceiveCount).toBe("2");
  });

  it("stop() finishes the batch in flight and deletes what it acknowledged", async () => {
    await send("slow");
    let started = false;
    const poller = await startPoller({
      sqs,
      queueUrl: stack.resources.queueUrl,
      logger,
      waitTimeSeconds: 1,
      handler: async () => {
        started = true;
        await delay(500);
        return { batchItemFailures: [] };
      },
    });
    while (!started) await delay(10);
    await poller.stop();
    expect(await drain(sqs, stack.resources.queueUrl)).toEqual([]);
  });
});
