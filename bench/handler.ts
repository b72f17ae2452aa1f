/**
 * Handler overhead per message, excluding AWS: the real processBatch, batches of 10, on
 * the awarded and duplicate paths, side by side in one run with
 *   - decodeOnly: JSON + zod + intent key alone, the floor;
 *   - handler: the SDK call answers at once (`send` stubbed): our code's cost;
 *   - handlerWithSdk: the real SDK client, only its HTTP handler stubbed: what a Lambda
 *     pays on the CPU per message besides the network.
 * Also counts DynamoDB calls per message (must be exactly 1 when nothing fails).
 *
 *   npx tsx bench/handler.ts [--batches 20000] [--warmup 2000]
 *
 * `--warmup`: batches run before each measurement (the JIT's warm-up); the smoke in
 * tests/benchSmoke.test.ts runs a few, as it times nothing.
 */
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { decodeEvent } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { completed, lambdaContext, sqsEvent, sqsRecord } from "@rewards/testing";
import { processBatch, type WorkerDeps } from "@rewards/worker";
import pino from "pino";

const flag = (name: string) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined;
const batches = flag("--batches") || 20_000;
const warmup = flag("--warmup") ?? 2000;
const BATCH = 10;

/**
 * A real document client whose HTTP handler answers at once: serialisation, signing and
 * parsing all run; only the network and DynamoDB do not.
 */
function stubDynamo(answer: "ok" | "duplicate", mode: "send" | "http") {
  let calls = 0;
  const body =
    answer === "ok"
      ? "{}"
      : JSON.stringify({
          __type: "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
          message: "Transaction cancelled",
          CancellationReasons: [{ Code: "ConditionalCheckFailed" }, { Code: "None" }],
        });
  const client = createDynamoClient({
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:9",
    AWS_ACCESS_KEY_ID: "bench",
    AWS_SECRET_ACCESS_KEY: "bench",
  });
  if (mode === "send") {
    // The handler's own cost: the SDK call itself answers at once.
    const cancelled = Object.assign(new Error("Transaction cancelled"), JSON.parse(body), {
      name: "TransactionCanceledException",
    });
    client.send = (async () => {
      calls++;
      if (answer === "duplicate") throw cancelled;
      return {};
    }) as never;
    return { client, calls: () => calls };
  }
  client.config.requestHandler = {
    handle: async () => {
      calls++;
      return {
        response: {
          statusCode: answer === "ok" ? 200 : 400,
          headers: { "content-type": "application/x-amz-json-1.0" },
          body: Readable.from([Buffer.from(body)]),
        },
      };
    },
  } as never;
  return { client, calls: () => calls };
}

function deps(dynamo: DynamoDBDocumentClient): WorkerDeps {
  return {
    tableName: "bench",
    stage: "bench",
    concurrency: 10,
    dynamo,
    sqs: { send: async () => ({}) } as unknown as SQSClient,
    logger: pino({ level: "silent" }),
    emitMetrics: () => {},
  };
}

// Ten users per batch, as a busy queue would deliver them.
const events = Array.from({ length: 64 }, (_, b) =>
  sqsEvent(
    Array.from({ length: BATCH }, (_, i) => sqsRecord(completed(`bench-user-${i}`, `article-${b}-${i}`))),
  ),
);

async function measure(answer: "ok" | "duplicate", mode: "send" | "http") {
  const dynamo = stubDynamo(answer, mode);
  const d = deps(dynamo.client);
  const context = lambdaContext(900_000);
  for (let i = 0; i < warmup; i++) await processBatch(d, events[i % events.length] as never, context); // warm-up
  const callsBefore = dynamo.calls();
  const started = performance.now();
  const outcomes = new Map<string, number>();
  for (let i = 0; i < batches; i++) {
    const { results } = await processBatch(d, events[i % events.length] as never, context);
    for (const r of results) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
  }
  const elapsed = performance.now() - started;
  const messages = batches * BATCH;
  const expected = answer === "ok" ? "awarded" : "duplicate";
  if (outcomes.get(expected) !== messages)
    throw new Error(`unexpected outcomes: ${JSON.stringify([...outcomes])}`);
  return {
    usPerMessage: Number(((elapsed * 1000) / messages).toFixed(1)),
    dynamoCallsPerMessage: (dynamo.calls() - callsBefore) / messages,
  };
}

function measureDecode() {
  const bodies = events.flatMap((e) => e.Records.map((r) => r.body));
  const started = performance.now();
  for (let i = 0; i < batches * BATCH; i++) decodeEvent(bodies[i % bodies.length] as string);
  return { usPerMessage: Number((((performance.now() - started) * 1000) / (batches * BATCH)).toFixed(1)) };
}

const decodeOnly = measureDecode();
const report = {
  batches,
  warmup,
  batchSize: BATCH,
  decodeOnly,
  handler: { awarded: await measure("ok", "send"), duplicate: await measure("duplicate", "send") },
  handlerWithSdk: { awarded: await measure("ok", "http"), duplicate: await measure("duplicate", "http") },
  targetUsPerMessage: 100,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
