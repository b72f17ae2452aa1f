/**
 * Publishing throughput to the local stack: the library (validation, chunking, retries)
 * next to a bare SendMessageBatch loop at the same concurrency, in one run.
 *
 *   npx tsx bench/publish.ts [--events 20000]
 */
import { performance } from "node:perf_hooks";
import { PurgeQueueCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import { startLocalStack } from "@rewards/local";
import { createPublisher } from "@rewards/producer";
import pLimit from "p-limit";

const at = process.argv.indexOf("--events");
const events = at > 0 ? Number(process.argv[at + 1]) : 20_000;
const CONCURRENCY = 8;

const stack = await startLocalStack();
try {
  const sqs = createSqsClient({ ...stack.env, AWS_REGION: "us-east-1" });
  const publisher = createPublisher({
    queueUrl: stack.resources.queueUrl,
    client: sqs,
    concurrency: CONCURRENCY,
  });
  const batch = Array.from({ length: events }, (_, i) =>
    publisher.events.articleCompleted({ userId: `bench-${i % 500}`, articleSlug: `article-${i}` }),
  );

  const library = async () => {
    const started = performance.now();
    const results = await publisher.publish(batch);
    const seconds = (performance.now() - started) / 1000;
    if (results.some((r) => !r.ok)) throw new Error("a publish failed");
    return Math.round(events / seconds);
  };
  const bare = async () => {
    const limit = pLimit(CONCURRENCY);
    const started = performance.now();
    const chunks = Array.from({ length: Math.ceil(events / 10) }, (_, c) => batch.slice(c * 10, c * 10 + 10));
    await Promise.all(
      chunks.map((chunk) =>
        limit(() =>
          sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: stack.resources.queueUrl,
              Entries: chunk.map((event, i) => ({
                Id: String(i),
                MessageBody: JSON.stringify(event),
                MessageAttributes: {
                  type: { DataType: "String", StringValue: event.type },
                  specversion: { DataType: "String", StringValue: "1.0" },
                },
              })),
            }),
          ),
        ),
      ),
    );
    return Math.round(events / ((performance.now() - started) / 1000));
  };
  const purge = () => sqs.send(new PurgeQueueCommand({ QueueUrl: stack.resources.queueUrl }));

  await library(); // warm-up: JIT, sockets
  await purge();
  const rounds: Array<{ library: number; bare: number }> = [];
  for (let round = 0; round < 3; round++) {
    const lib = await library();
    await purge();
    const raw = await bare();
    await purge();
    rounds.push({ library: lib, bare: raw });
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const libraryEps = median(rounds.map((r) => r.library));
  const bareEps = median(rounds.map((r) => r.bare));
  process.stdout.write(
    `${JSON.stringify(
      {
        events,
        concurrency: CONCURRENCY,
        rounds,
        libraryEventsPerSecond: libraryEps,
        bareEventsPerSecond: bareEps,
        libraryOverBare: Number((libraryEps / bareEps).toFixed(2)),
        targetEventsPerSecond: 2000,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await stack.stop();
}
