/**
 * Awards as events, on the local stack: how long from an award's commit (its `awardedAt`)
 * to the `reward.granted` event's arrival on the local bus (p50/p99/max), and what the
 * announcer costs per award — invocations, PutEvents calls and entries, stream calls and
 * records read, function time — with an estimate in dollars at AWS's list prices.
 *
 * The worker and the announcer run as on Lambda (each function in processes of its own, the
 * deployable bundles, the announcer's stream polled 4 times a second); calls are counted by
 * a proxy that injects nothing. Traffic arrives at a steady rate (`--rate`), so the delay
 * is the announcer's, not a backlog's.
 *
 *   npx tsx bench/announce.ts [--events 2000] [--rate 100] [--function source|artifact]
 */
import { setTimeout as delay } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createDynamoClient, createLogger, createSqsClient } from "@rewards/core/aws";
import { resources, toolConfigFrom } from "@rewards/core/deploy";
import {
  deployedAnnouncerSettings,
  type FunctionCode,
  startFaultProxy,
  startLocalAnnouncer,
  startLocalStack,
  startLocalWorker,
} from "@rewards/local";
import { grantsAmong, receiveGrants, waitForDrain } from "@rewards/ops";
import { checkGrants, generateTraffic, sendTraffic, waitUntilAnnounced } from "@rewards/scenario";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "2000" },
    rate: { type: "string", default: "100" },
    function: { type: "string", default: "artifact" },
  },
});
const events = Number(values.events);
const rate = Number(values.rate);
const code = values.function as FunctionCode;

/** AWS list prices (us-east-1, 2026): EventBridge custom events, Lambda requests and x86 duration. */
const PRICE = { eventPerMillion: 1.0, requestPerMillion: 0.2, gbSecond: 0.0000166667 };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const arrivals = new Map<string, number>();
const stack = await startLocalStack({
  onBusEvent: (event, receivedAt) => {
    const detail = event.detail as { id: string; data: { awardedAt: string } };
    if (!arrivals.has(detail.id)) arrivals.set(detail.id, receivedAt - Date.parse(detail.data.awardedAt));
  },
});
const calls: Record<string, number> = {};
const records = { streamRecordsRead: 0, entriesSent: 0 };
const count = (operation: string, status: number, body: Buffer) => {
  calls[operation] = (calls[operation] ?? 0) + 1;
  if (status !== 200) return;
  if (operation === "GetRecords")
    records.streamRecordsRead += (JSON.parse(body.toString()).Records ?? []).length;
  if (operation === "PutEvents") records.entriesSent += (JSON.parse(body.toString()).Entries ?? []).length;
};
const streamProxy = await startFaultProxy({
  target: stack.endpoints.dynamodb,
  rules: [],
  seed: 1,
  observe: count,
});
const busProxy = await startFaultProxy({
  target: stack.endpoints.eventbridge,
  rules: [],
  seed: 1,
  observe: count,
});
const logger = createLogger({ level: "silent" });
let functionMs = 0;
const announcer = await startLocalAnnouncer({
  config: toolConfigFrom(
    {
      ...stack.env,
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: streamProxy.endpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: busProxy.endpoint,
      LOG_LEVEL: "warn",
    },
    "TABLE_NAME",
    "BUS_NAME",
  ),
  code,
  settings: deployedAnnouncerSettings(),
  logger,
  onOutput: (line) => {
    if (line.startsWith('{"_aws"')) functionMs += Number(JSON.parse(line).batchDuration ?? 0);
  },
});
const worker = await startLocalWorker({
  config: toolConfigFrom({ ...stack.env, LOG_LEVEL: "silent" }, "TABLE_NAME", "QUEUE_URL"),
  code,
  settings: { waitTimeSeconds: 1, pollers: 2, timeoutMs: 30_000 },
  logger,
});
try {
  const sqs = createSqsClient(stack.env);
  const traffic = generateTraffic({ events, users: 200, duplicates: 0.25, invalid: 0.01, seed: 2026 });
  const started = Date.now();
  // A steady producer: `rate` events a second, in sends of 10.
  for (let offset = 0; offset < traffic.messages.length; offset += 10) {
    const due = started + (offset / rate) * 1000;
    if (due > Date.now()) await delay(due - Date.now());
    await sendTraffic(traffic.messages.slice(offset, offset + 10), {
      sqs,
      queueUrl: stack.resources.queueUrl,
    });
  }
  if (!(await waitForDrain(sqs, stack.resources.queueUrl, 600_000)))
    throw new Error("the queue did not drain");
  if (!(await waitUntilAnnounced(announcer.source, Date.now(), 120_000)))
    throw new Error("the announcer did not catch up");
  await worker.stop();
  await announcer.stop();
  const received = await receiveGrants(sqs, stack.resources.grantsQueueUrl, {
    max: Number.MAX_SAFE_INTEGER,
    waitSeconds: 0,
    keep: false,
  });
  const check = await checkGrants(
    createDynamoClient(stack.env),
    stack.resources.tableName,
    grantsAmong(received),
  );
  const delays = [...arrivals.values()].sort((a, b) => a - b);
  const awards = check.awards;
  const invocations = announcer.stats.invocations;
  const perAward = (n: number) => Number((n / awards).toFixed(3));
  // The handler's own time (its EMF batchDuration) at the deployed memory; Lambda rounds each
  // invocation up to the millisecond. Stream reads by a Lambda trigger are free.
  const gbSeconds = (functionMs / 1000) * (resources.announcer.memoryMb / 1024);
  const dollarsPerMillion =
    (PRICE.eventPerMillion * records.entriesSent +
      PRICE.requestPerMillion * invocations +
      PRICE.gbSecond * 1_000_000 * gbSeconds) /
    awards;
  process.stdout.write(
    `${JSON.stringify(
      {
        events,
        ratePerSecond: rate,
        function: code,
        awards,
        exactlyTheAwards:
          check.missing.length === 0 && check.unexpected.length === 0 && check.announced === awards,
        commitToBusMs: {
          p50: percentile(delays, 50),
          p99: percentile(delays, 99),
          max: delays.at(-1),
        },
        perAward: {
          invocations: perAward(invocations),
          putEventsCalls: perAward(calls.PutEvents ?? 0),
          entries: perAward(records.entriesSent),
          getRecordsCalls: perAward(calls.GetRecords ?? 0),
          streamRecordsRead: perAward(records.streamRecordsRead),
          functionMs: perAward(functionMs),
        },
        estimatedDollarsPerMillionAwards: Number(dollarsPerMillion.toFixed(2)),
        prices: PRICE,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await worker.stop();
  await announcer.stop();
  await streamProxy.stop();
  await busProxy.stop();
  await stack.stop();
}
