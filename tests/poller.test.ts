import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import {
  type BatchHandler,
  type BatchSummary,
  type PollerOptions,
  PollerOptionsError,
  startPoller,
} from "@rewards/local";
import { queueCounts } from "@rewards/ops";
import { stackTest, waitFor } from "@rewards/testing";
import type { SQSEvent } from "aws-lambda";
import pino from "pino";
import { describe, expect } from "vitest";

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/lambda-sqs-event.aws-docs.json", import.meta.url), "utf8"),
) as SQSEvent;

const logger = pino({ level: "silent" });
const it = stackTest({ visibilityTimeoutSeconds: 1 });
let sqs: SQSClient;
let queueUrl: string;

it.beforeEach(({ env, queues }) => {
  sqs = createSqsClient({ ...env, AWS_REGION: "us-east-1" }, { requestTimeoutMs: 10_000 });
  queueUrl = queues.queueUrl;
});

const send = (body: string, attributes = {}) =>
  sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      MessageAttributes: attributes,
    }),
  );

/** Polls with `handler` until `until` holds, then stops the poller. */
async function pollUntil(
  handler: BatchHandler,
  until: (batches: BatchSummary[]) => boolean,
  timeoutMs = 15_000,
  extra: Partial<PollerOptions> = {},
) {
  const batches: BatchSummary[] = [];
  const poller = await startPoller({
    sqs,
    queueUrl,
    handler,
    logger,
    waitTimeSeconds: 1,
    timeoutMs: 600, // under the 1 s visibility timeout, as Lambda requires
    onBatch: (summary) => batches.push(summary),
    ...extra,
  });
  await waitFor(() => until(batches), { timeoutMs });
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
    expect(record?.eventSourceARN).toBe(`arn:aws:sqs:us-east-1:000000000000:${queueUrl.split("/").pop()}`);
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
    ["runs past its timeout", () => delay(700).then(() => ({ batchItemFailures: [] }))],
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
    let finished = false;
    const poller = await startPoller({
      sqs,
      queueUrl,
      logger,
      waitTimeSeconds: 1,
      timeoutMs: 900,
      handler: async () => {
        started = true;
        await delay(300);
        finished = true;
        return { batchItemFailures: [] };
      },
    });
    await waitFor(() => started);
    await poller.stop();
    expect(finished).toBe(true);
    // Deleted, not merely in flight: an undeleted message would still count as in flight.
    expect(await queueCounts(sqs, queueUrl)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });

  it.for([
    [{ timeoutMs: 1000 }, "timeout 1000 ms must be shorter than the queue's visibility timeout (1 s)"],
    [{ timeoutMs: 5000 }, "timeout 5000 ms must be shorter than the queue's visibility timeout (1 s)"],
    [
      { batchSize: 11, timeoutMs: 500 },
      "batch size 11 is over 10, which needs a batch window of at least 1 s",
    ],
    [{ batchSize: 0, timeoutMs: 500 }, "batch size 0 must be a whole number from 1 to 10,000"],
    [{ batchWindowMs: 301_000, timeoutMs: 500 }, "batch window 301000 ms must be from 0 to 300,000 ms"],
    [
      { batchWindowMs: 600, timeoutMs: 500 },
      "timeout 500 ms plus batch window 600 ms must be shorter than the queue's visibility timeout (1 s)",
    ],
  ] as const)("refuses options Lambda would refuse: %o", async ([options, message]) => {
    const starting = startPoller({
      sqs,
      queueUrl,
      logger,
      handler: async () => ({ batchItemFailures: [] }),
      ...options,
    });
    await expect(starting).rejects.toBeInstanceOf(PollerOptionsError);
    await expect(starting).rejects.toThrow(message);
  });
});

describe("large batches (a queue with a 3 s visibility timeout)", () => {
  it.override({ queueOptions: { visibilityTimeoutSeconds: 3 } });

  it("accepts a batch of up to 10,000 with a window, and hands it over whole", async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => send(`m${i}`)));
    const sizes: number[] = [];
    await pollUntil(
      async (event) => {
        sizes.push(event.Records.length);
        return { batchItemFailures: [] };
      },
      () => sizes.reduce((a, b) => a + b, 0) >= 25,
      15_000,
      { batchSize: 25, batchWindowMs: 1000, timeoutMs: 1000, pollers: 1 },
    );
    expect(sizes[0]).toBe(25);
    expect(await queueCounts(sqs, queueUrl)).toEqual({ visible: 0, inFlight: 0, delayed: 0 });
  });
});
