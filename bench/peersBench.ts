/**
 * `npm run bench:peers`: this worker against Powertools idempotency and check-then-write,
 * on the same local stack, workload and seed, side by side in one run. Writes
 * bench/results.json and bench/REPORT.md. See bench/REPORT.md for what each column means.
 */
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { CreateTableCommand, DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { GetCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, profileKey, profileUpdate, userOfKey } from "@rewards/core";
import { resources } from "@rewards/core/deploy";
import {
  createTable,
  type FaultRule,
  type LocalStack,
  lambdaContext,
  startFaultProxy,
  startLocalStack,
} from "@rewards/local";
import { scanTable } from "@rewards/ops";
import { generateTraffic } from "@rewards/scenario";
import { sqsRecord } from "@rewards/testing";
import type { SqsBatchHandler } from "@rewards/worker";
import type { SQSRecord } from "aws-lambda";
import pLimit from "p-limit";
import { type Peer, peers } from "./peers";
import { startCallRecorder, waves } from "./peers/callRecorder";
import { itemSizeBytes, readUnits, writeUnits } from "./peers/capacity";
import { documentClient } from "./peers/peer";

/**
 * BENCH_SIZE: `full` (the default: the figures to quote), `quick` (a small run to check the
 * harness), `smoke` (the smallest that exercises every part: CI runs it, nothing is timed).
 */
const SIZE = process.env.BENCH_SIZE ?? (process.env.BENCH_QUICK === "1" ? "quick" : "full");
const QUICK = SIZE !== "full";
const SMOKE = SIZE === "smoke";
const SEED = 2026;
const DELIVERIES = SMOKE ? 40 : QUICK ? 300 : 3000;
const USERS = 100;
const DUPLICATES = 0.3;
const RUNS = QUICK ? 1 : 3;
/** Per-call delays large against the local DynamoDB's own service time (a few ms, serialised). */
const ROUND_TRIPS_MS = SMOKE ? [25] : [25, 50];
/** Batches measured per latency mode: of 10, and of 100. */
const LATENCY_BATCHES = SMOKE ? { 10: 1, 100: 0 } : QUICK ? { 10: 3, 100: 1 } : { 10: 20, 100: 4 };
/** The round trip of the batches whose calls are recorded to count waves: long against a wave's serial time here. */
const DEPTH_ROUND_TRIP_MS = SMOKE ? 200 : 1000;
/** Sequential calls per figure of the emulator's service time. */
const SERVICE_SAMPLES = SMOKE ? 8 : QUICK ? 20 : 60;
/** Latency of the race case's calls (the emulator's speed is not what it measures). */
const RACE_LATENCY_MS = 10;
const credentials = { accessKeyId: "test", secretAccessKey: "test" };

interface Tables {
  tableName: string;
  idempotencyTableName: string;
}

async function createTables(stack: LocalStack): Promise<Tables> {
  const admin = new DynamoDBClient({ region: "us-east-1", endpoint: stack.endpoints.dynamodb, credentials });
  const id = randomUUID().slice(0, 8);
  const tables = { tableName: `bench-${id}`, idempotencyTableName: `bench-${id}-idempotency` };
  await createTable(admin, tables.tableName);
  await admin.send(
    new CreateTableCommand({
      TableName: tables.idempotencyTableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    }),
  );
  admin.destroy();
  return tables;
}

const clientConfig = (endpoint: string, maxAttempts = 3): DynamoDBClientConfig => ({
  region: "us-east-1",
  endpoint,
  credentials,
  maxAttempts,
});

/** A handler for `peer` on fresh tables, reaching DynamoDB through a proxy that counts (and may fault) every call. */
async function instance(stack: LocalStack, peer: Peer, rules: FaultRule[] = [], maxAttempts = 3) {
  const tables = await createTables(stack);
  const calls = new Map<string, number>();
  const proxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules,
    seed: SEED,
    observe: (operation) => calls.set(operation, (calls.get(operation) ?? 0) + 1),
  });
  const handler = peer.create({ client: clientConfig(proxy.endpoint, maxAttempts), ...tables });
  const totalCalls = () => [...calls.values()].reduce((a, b) => a + b, 0);
  return { tables, proxy, calls, totalCalls, handler };
}

/** As Lambda reads an invocation: a thrown error (Powertools throws when every record failed) fails the whole batch. */
const invoke = (handler: SqsBatchHandler, records: SQSRecord[], remainingMs = 30_000) =>
  handler({ Records: records }, lambdaContext(remainingMs)).catch(() => ({
    batchItemFailures: records.map((record) => ({ itemIdentifier: record.messageId })),
  }));

function batches<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, i * size + size),
  );
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const median = (values: readonly number[]) => percentile(values, 50);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** Awards per user, from the profiles. */
async function awardsByUser(stack: LocalStack, tables: Tables): Promise<Map<string, number>> {
  const doc = documentClient(clientConfig(stack.endpoints.dynamodb));
  const result = new Map<string, number>();
  for await (const page of scanTable(doc, { TableName: tables.tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) {
      if (item.sk === profileKey("").sk) result.set(userOfKey(item.pk) ?? "", Number(item.awards));
    }
  }
  doc.destroy();
  return result;
}

// --- the workload ---------------------------------------------------------------------------

const traffic = generateTraffic({
  events: DELIVERIES,
  users: USERS,
  duplicates: DUPLICATES,
  invalid: 0,
  seed: SEED,
});
const deliveries = traffic.messages.map((m) => sqsRecord(m.body));
const fresh = (count: number, label: string) =>
  Array.from({ length: count }, (_, i) =>
    sqsRecord(
      JSON.stringify({
        specversion: "1.0",
        id: `evt-${label}-${i}`,
        source: "/bench",
        type: "article.completed",
        time: new Date().toISOString(),
        data: { userId: `${label}-user-${i}`, articleSlug: `${label}-slug` },
      }),
    ),
  );
const redeliver = (records: SQSRecord[]) => records.map((r) => sqsRecord(r.body));

// --- 1. calls and write units per new event and per duplicate ------------------------------

async function callsAndUnits(stack: LocalStack, peer: Peer) {
  const run = await instance(stack, peer);
  const batch = fresh(10, "calls");
  await invoke(run.handler, batch);
  const newCalls = run.totalCalls() / 10;
  const newByOperation = Object.fromEntries(run.calls);
  run.calls.clear();
  await invoke(run.handler, redeliver(batch));
  const duplicateCalls = run.totalCalls() / 10;
  const duplicateByOperation = Object.fromEntries(run.calls);
  // Item sizes as stored, for the capacity model.
  const doc = documentClient(clientConfig(stack.endpoints.dynamodb));
  const profile =
    (await doc.send(new GetCommand({ TableName: run.tables.tableName, Key: profileKey("calls-user-0") })))
      .Item ?? {};
  const guard =
    (
      await doc.send(
        new GetCommand({
          TableName: run.tables.tableName,
          Key: guardKey("calls-user-0#calls-slug#article.completed"),
        }),
      )
    ).Item ?? {};
  const records = await doc.send(new ScanCommand({ TableName: run.tables.idempotencyTableName, Limit: 1 }));
  doc.destroy();
  await run.proxy.stop();
  const profileBytes = itemSizeBytes(profile);
  const guardBytes = itemSizeBytes(guard);
  const recordBytes = itemSizeBytes(records.Items?.[0] ?? {});
  const model = unitModel(peer.name, { guardBytes, profileBytes, recordBytes });
  const perUser = (k: number, paid: number) => model(k, paid);
  // The mixed batch's shape: five records per user, the odd positions paid before (2 or 3 of each user's 5).
  const mixed = [0, 1].map((u) => perUser(5, [0, 1, 2, 3, 4].filter((j) => (u * 5 + j) % 2 === 1).length));
  return {
    callsPerNewEvent: newCalls,
    callsPerDuplicate: duplicateCalls,
    newByOperation,
    duplicateByOperation,
    itemBytes: { profile: profileBytes, guard: guardBytes, idempotencyRecord: recordBytes },
    // Computed from the measured sizes and DynamoDB's published rules (bench/peers/capacity.ts).
    writeUnitsPerAward: { k1: round(perUser(1, 0).wcu / 1), k5: round(perUser(5, 0).wcu / 5) },
    readUnitsPerAward: { k1: round(perUser(1, 0).rcu / 1), k5: round(perUser(5, 0).rcu / 5) },
    writeUnitsPerDuplicate: perUser(1, 1).wcu,
    readUnitsPerDuplicate: perUser(1, 1).rcu,
    /** Per record of a batch of five records per user with half of them paid before (2 of one user's, 3 of the next). */
    writeUnitsPerRecordMixed: round(
      (mixed[0]?.wcu ?? Number.NaN) / 5 / 2 + (mixed[1]?.wcu ?? Number.NaN) / 5 / 2,
    ),
    readUnitsPerRecordMixed: round(
      (mixed[0]?.rcu ?? Number.NaN) / 5 / 2 + (mixed[1]?.rcu ?? Number.NaN) / 5 / 2,
    ),
  };
}

/**
 * Units for k records of one user in one batch, `paid` of them paid by an earlier batch.
 * This worker: one transaction of the k guards + the profile (2 WCU per KB per item); when some
 * were paid that transaction is cancelled (AWS does not publish what a cancelled transaction
 * consumes: counted as if written, this worker's worst case) and the rest go again as a second one.
 * Powertools: per new record a conditional put of its record, the award, the COMPLETED update;
 * per paid record the failed conditional put (1 WCU). Check-then-write: per record a strongly
 * consistent read; per new record the award and the guard put.
 */
function unitModel(name: string, bytes: { guardBytes: number; profileBytes: number; recordBytes: number }) {
  const guard = writeUnits(bytes.guardBytes);
  const profile = writeUnits(bytes.profileBytes);
  const record = writeUnits(bytes.recordBytes);
  return (k: number, paid: number): { wcu: number; rcu: number } => {
    const fresh = k - paid;
    switch (name) {
      case "rewards (this worker)": {
        const transaction = (guards: number) => (guards > 0 ? 2 * (guards * guard + profile) : 0);
        return { wcu: paid > 0 ? transaction(k) + transaction(fresh) : transaction(k), rcu: 0 };
      }
      case "Powertools idempotency":
        return { wcu: fresh * (2 * record + profile) + paid * record, rcu: 0 };
      case "check-then-write":
        return { wcu: fresh * (profile + guard), rcu: k * readUnits(bytes.guardBytes) };
      default:
        return { wcu: Number.NaN, rcu: Number.NaN };
    }
  };
}

// --- 2. time per event, sequential and with 4 batches in flight ---------------------------

async function timePerEvent(stack: LocalStack, peer: Peer, inFlight: number): Promise<number> {
  const run = await instance(stack, peer);
  const limit = pLimit(inFlight);
  const started = performance.now();
  await Promise.all(batches(deliveries, 10).map((batch) => limit(() => invoke(run.handler, batch))));
  const perEvent = (performance.now() - started) / deliveries.length;
  await run.proxy.stop();
  return perEvent;
}

// --- 3. batch latency at real round trips ----------------------------------------------------

/**
 * `distinct`: every record a user of its own; `repeating`: five records for each user, other
 * intents; `mixed`: five records per user, half of the batch (the odd positions: 2 or 3 of each
 * user's five) paid by an earlier, untimed batch.
 */
type Pattern = "distinct" | "repeating" | "mixed";
const PATTERNS: readonly Pattern[] = ["distinct", "repeating", "mixed"];

function latencyBatch(size: number, pattern: Pattern, label: string): SQSRecord[] {
  return Array.from({ length: size }, (_, i) =>
    sqsRecord(
      JSON.stringify({
        specversion: "1.0",
        id: `evt-${label}-${i}`,
        source: "/bench",
        type: "article.completed",
        time: new Date().toISOString(),
        data: {
          userId: pattern === "distinct" ? `${label}-user-${i}` : `${label}-user-${Math.floor(i / 5)}`,
          articleSlug: `${label}-slug-${i}`,
        },
      }),
    ),
  );
}

/** The records of a mixed batch paid before it, as deliveries of their own (other message ids). */
const paidBefore = (batch: SQSRecord[], pattern: Pattern) =>
  pattern === "mixed" ? redeliver(batch.filter((_, i) => i % 2 === 1)) : [];

/** Pays a mixed batch's earlier half straight to DynamoDB (no injected latency: it is not timed). */
async function payBefore(stack: LocalStack, peer: Peer, tables: Tables, records: SQSRecord[]) {
  if (records.length === 0) return;
  const direct = peer.create({ client: clientConfig(stack.endpoints.dynamodb), ...tables });
  const response = await invoke(direct, records);
  if (response.batchItemFailures.length > 0)
    throw new Error(`${peer.name}: paying before a mixed batch failed`);
}

async function batchLatency(
  stack: LocalStack,
  peer: Peer,
  roundTripMs: number,
  size: 10 | 100,
  pattern: Pattern,
) {
  const latency: FaultRule[] = [{ operation: "*", fault: "latency", probability: 1, fixedMs: roundTripMs }];
  const run = await instance(stack, peer, latency);
  const durations: number[] = [];
  for (let b = 0; b < LATENCY_BATCHES[size]; b++) {
    const batch = latencyBatch(size, pattern, `lat-${roundTripMs}-${size}-${pattern}-${b}`);
    await payBefore(stack, peer, run.tables, paidBefore(batch, pattern));
    const started = performance.now();
    await invoke(run.handler, batch);
    durations.push(performance.now() - started);
  }
  await run.proxy.stop();
  const p50 = percentile(durations, 50);
  return {
    roundTripMs,
    size,
    pattern,
    batches: durations.length,
    p50Ms: round(p50, 1),
    p99Ms: round(percentile(durations, 99), 1),
    p50RoundTrips: round(p50 / roundTripMs, 2),
  };
}

// --- 3a. critical-path depth of each batch shape ----------------------------------------------

/**
 * One batch of each shape with a round trip long against the emulator's serial time for one wave,
 * every call's arrival and answer noted by a hop in front of the fault proxy: the waves are the
 * transactions (calls) in sequence. Beside it, the depth computed from each worker's design.
 */
async function criticalPath(stack: LocalStack, peer: Peer, size: 10 | 100, pattern: Pattern) {
  const tables = await createTables(stack);
  const proxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: [{ operation: "*", fault: "latency", probability: 1, fixedMs: DEPTH_ROUND_TRIP_MS }],
    seed: SEED,
  });
  const recorder = await startCallRecorder(proxy.endpoint);
  const handler = peer.create({ client: clientConfig(recorder.endpoint), ...tables });
  const batch = latencyBatch(size, pattern, `depth-${size}-${pattern}`);
  await payBefore(stack, peer, tables, paidBefore(batch, pattern));
  const started = performance.now();
  await invoke(handler, batch);
  const ms = performance.now() - started;
  await recorder.stop();
  await proxy.stop();
  const users = new Set(batch.map((r) => JSON.parse(r.body).data.userId)).size;
  const wavesOf = waves(recorder.calls);
  const computed =
    peer.name === "rewards (this worker)"
      ? Math.ceil(users / resources.worker.concurrency) * (pattern === "mixed" ? 2 : 1)
      : peer.sequence.length;
  return {
    size,
    pattern,
    users,
    roundTripMs: DEPTH_ROUND_TRIP_MS,
    calls: recorder.calls.length,
    byOperation: Object.fromEntries(
      [...new Set(recorder.calls.map((c) => c.operation))].map((op) => [
        op,
        recorder.calls.filter((c) => c.operation === op).length,
      ]),
    ),
    measuredDepth: wavesOf.depth,
    /** The widest spread of answers within one wave: at or over the round trip, the depth may be overcounted. */
    waveSpreadMs: round(wavesOf.spreadMs, 1),
    computedDepth: computed,
    batchRoundTrips: round(ms / DEPTH_ROUND_TRIP_MS, 2),
  };
}

// --- 3b. the emulator's serial service time -----------------------------------------------------

/** p50 of sequential calls straight to the local DynamoDB (no proxy, no injected latency), as the SDK client sees them. */
async function serviceTime(stack: LocalStack) {
  const tables = await createTables(stack);
  const doc = documentClient(clientConfig(stack.endpoints.dynamodb));
  const now = new Date().toISOString();
  // Our profile write, as the worker plans it: XP, awards and the count of the awards' one type.
  const ours = (awards: number) => {
    const { countValues, ...update } = profileUpdate(new Map([["article.completed", awards]]));
    return {
      ...update,
      ExpressionAttributeValues: { ":xp": 10 * awards, ":awards": awards, ":now": now, ...countValues },
    };
  };
  const transaction = async (guards: number, label: string) => {
    const userId = `svc-${label}`;
    const started = performance.now();
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...Array.from({ length: guards }, (_, i) => ({
            Put: {
              TableName: tables.tableName,
              Item: {
                ...guardKey(`${userId}#slug-${i}#article.completed`),
                userId,
                type: "article.completed",
                amount: 10,
                eventId: `evt-${label}-${i}`,
                messageId: `msg-${label}-${i}`,
                awardedAt: now,
              },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          })),
          {
            Update: {
              TableName: tables.tableName,
              Key: profileKey(userId),
              ...ours(guards),
            },
          },
        ],
      }),
    );
    return performance.now() - started;
  };
  const update = async (label: string) => {
    const started = performance.now();
    await doc.send(
      new UpdateCommand({
        TableName: tables.tableName,
        Key: profileKey(`svc-${label}`),
        ...ours(1),
      }),
    );
    return performance.now() - started;
  };
  const sample = async (n: number, call: (label: string) => Promise<number>, label: string) => {
    for (let i = 0; i < 3; i++) await call(`${label}-warm-${i}`);
    const ms: number[] = [];
    for (let i = 0; i < n; i++) ms.push(await call(`${label}-${i}`));
    return { samples: n, p50Ms: round(median(ms), 2), p90Ms: round(percentile(ms, 90), 2) };
  };
  const result = {
    transaction2Items: await sample(SERVICE_SAMPLES, (l) => transaction(1, l), "t2"),
    transaction100Items: await sample(Math.ceil(SERVICE_SAMPLES / 4), (l) => transaction(99, l), "t100"),
    updateItem: await sample(SERVICE_SAMPLES, update, "u"),
  };
  doc.destroy();
  return result;
}

// --- 4. one intent delivered in 5 batches processed at once ---------------------------------

async function concurrentCopies(stack: LocalStack, peer: Peer) {
  const latency: FaultRule[] = [
    { operation: "*", fault: "latency", probability: 1, fixedMs: RACE_LATENCY_MS },
  ];
  const run = await instance(stack, peer, latency);
  const intents = fresh(SMOKE ? 20 : 200, "race");
  const waves = Array.from({ length: 5 }, () => redeliver(intents));
  let pending = waves.flatMap((wave) => batches(wave, 10));
  let failedDeliveries = 0;
  // SQS redelivers what failed, until nothing does.
  for (let round = 0; round < 10 && pending.length > 0; round++) {
    const responses = await Promise.all(pending.map((batch) => invoke(run.handler, batch)));
    const failedIds = new Set(responses.flatMap((r) => r.batchItemFailures.map((f) => f.itemIdentifier)));
    failedDeliveries += failedIds.size;
    pending = batches(
      pending
        .flat()
        .filter((record) => failedIds.has(record.messageId))
        .map((r) => sqsRecord(r.body)),
      10,
    );
  }
  const awards = await awardsByUser(stack, run.tables);
  await run.proxy.stop();
  const paid = intents.map((_, i) => awards.get(`race-user-${i}`) ?? 0);
  return {
    intents: intents.length,
    copies: 5,
    doubleAwards: paid.reduce((n, a) => n + Math.max(0, a - 1), 0),
    lostAwards: paid.filter((a) => a === 0).length,
    failedDeliveries,
  };
}

// --- 5. the process dies after each call of a worker's sequence -------------------------------

async function crashWindows(stack: LocalStack, peer: Peer) {
  const rows = [];
  // The smoke dies after the first call only: each window waits out Powertools' 1 s in-progress
  // expiry on fresh tables, 8 windows in all, and the smoke proves the harness runs, not the rows.
  const windows = SMOKE ? 1 : peer.sequence.length;
  for (let after = 1; after <= windows; after++) {
    const tables = await createTables(stack);
    let forwarded = 0;
    const dying = await startFaultProxy({
      target: stack.endpoints.dynamodb,
      rules: [],
      seed: SEED,
      observe: () => {
        // After call `after` has taken effect the process is gone: nothing more reaches DynamoDB.
        if (++forwarded === after) dying.setRules([{ operation: "*", fault: "blackHole", probability: 1 }]);
      },
    });
    const [record] = fresh(1, `crash-${after}`);
    if (!record) throw new Error("no record");
    const doomed = peer.create({ client: clientConfig(dying.endpoint, 1), ...tables });
    // Its invocation never returns; Powertools' in-progress record expires with its 1 s budget.
    void invoke(doomed, [record], 1000).catch(() => {});
    await delay(1500);
    await dying.stop();
    const revived = peer.create({ client: clientConfig(stack.endpoints.dynamodb), ...tables });
    const response = await invoke(revived, [sqsRecord(record.body, { messageId: record.messageId })]);
    const awards = (await awardsByUser(stack, tables)).get(`crash-${after}-user-0`) ?? 0;
    rows.push({
      diesAfter: peer.sequence[after - 1],
      redeliveryFailed: response.batchItemFailures.length > 0,
      doubleAwards: Math.max(0, awards - 1),
      lostAwards: awards === 0 ? 1 : 0,
    });
  }
  return rows;
}

// --- 6. the write commits and its answer is lost ----------------------------------------------

const awardWrite: Record<string, string> = {
  "rewards (this worker)": "TransactWriteItems",
  "Powertools idempotency": "UpdateItem",
  "check-then-write": "UpdateItem",
};

async function commitThenDrop(stack: LocalStack, peer: Peer, where: "above" | "below") {
  // Above the SDK's retries the caller sees the error (1 attempt); below them the SDK resends by itself.
  const run = await instance(
    stack,
    peer,
    [{ operation: awardWrite[peer.name] ?? "", fault: "commitThenDrop", probability: 1, times: 1 }],
    where === "above" ? 1 : 3,
  );
  const [record] = fresh(1, `drop-${where}`);
  if (!record) throw new Error("no record");
  let deliveries = 0;
  let failed = true;
  for (; failed && deliveries < 5; deliveries++) {
    const response = await invoke(run.handler, [sqsRecord(record.body, { messageId: record.messageId })]);
    failed = response.batchItemFailures.length > 0;
  }
  const awards = (await awardsByUser(stack, run.tables)).get(`drop-${where}-user-0`) ?? 0;
  await run.proxy.stop();
  return { where, deliveries, doubleAwards: Math.max(0, awards - 1), lostAwards: awards === 0 ? 1 : 0 };
}

// --- the run ---------------------------------------------------------------------------------

const started = Date.now();
const stack = await startLocalStack();
const log = (line: string) => process.stderr.write(`${line}\n`);
try {
  log("the emulator's serial service time");
  const emulatorServiceTime = await serviceTime(stack);
  const results: Record<string, Record<string, unknown>> = {};
  for (const peer of peers) {
    log(`${peer.name}: calls, units, latency, races, crashes, lost answers`);
    results[peer.name] = {
      sequence: peer.sequence,
      ...(await callsAndUnits(stack, peer)),
      batchLatency: await (async () => {
        const rows = [];
        for (const roundTripMs of ROUND_TRIPS_MS) {
          for (const size of [10, 100] as const) {
            if (LATENCY_BATCHES[size] === 0) continue;
            for (const pattern of PATTERNS) {
              rows.push(await batchLatency(stack, peer, roundTripMs, size, pattern));
            }
          }
        }
        return rows;
      })(),
      criticalPath: await (async () => {
        const rows = [];
        for (const size of [10, 100] as const) {
          if (LATENCY_BATCHES[size] === 0) continue;
          for (const pattern of PATTERNS) rows.push(await criticalPath(stack, peer, size, pattern));
        }
        return rows;
      })(),
      concurrentCopies: await concurrentCopies(stack, peer),
      crashWindows: await crashWindows(stack, peer),
      commitThenDrop: [
        await commitThenDrop(stack, peer, "above"),
        await commitThenDrop(stack, peer, "below"),
      ],
    };
  }
  // Timing: every peer in every position, the median of the three rotations.
  const times: Record<string, { sequential: number[]; fourInFlight: number[] }> = Object.fromEntries(
    peers.map((p) => [p.name, { sequential: [], fourInFlight: [] }]),
  );
  for (let rotation = 0; rotation < RUNS; rotation++) {
    const order = [...peers.slice(rotation), ...peers.slice(0, rotation)];
    log(`timing, rotation ${rotation + 1} of ${RUNS}: ${order.map((p) => p.name).join(" → ")}`);
    for (const peer of order) {
      times[peer.name]?.sequential.push(await timePerEvent(stack, peer, 1));
      times[peer.name]?.fourInFlight.push(await timePerEvent(stack, peer, 4));
    }
  }
  const base = times[peers[0]?.name ?? ""];
  for (const peer of peers) {
    const own = times[peer.name];
    if (!own || !base) continue;
    Object.assign(results[peer.name] ?? {}, {
      msPerEventSequential: round(median(own.sequential), 3),
      msPerEventFourInFlight: round(median(own.fourInFlight), 3),
      timeRatioSequential: round(median(own.sequential) / median(base.sequential)),
      timeRatioFourInFlight: round(median(own.fourInFlight) / median(base.fourInFlight)),
    });
  }
  const report = {
    generatedAt: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    workload: {
      seed: SEED,
      deliveries: DELIVERIES,
      users: USERS,
      duplicateShare: DUPLICATES,
      uniqueIntents: traffic.uniqueIntents,
      batchSize: 10,
      runs: RUNS,
      roundTripsMs: ROUND_TRIPS_MS,
      raceLatencyMs: RACE_LATENCY_MS,
      depthRoundTripMs: DEPTH_ROUND_TRIP_MS,
      concurrency: resources.worker.concurrency,
    },
    emulatorServiceTime,
    versions: {
      node: process.version,
      "@aws-lambda-powertools/idempotency": "2.35.0",
      "@aws-lambda-powertools/batch": "2.35.0",
      "@aws-lambda-powertools/commons": "2.35.0",
      dynamodb: "moto 5.2.1 behind the project's launcher (serialised, AWS-faithful transactions and tokens)",
    },
    peers: results,
  };
  const out = new URL(QUICK ? `./results.${SIZE}.json` : "./results.json", import.meta.url);
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${out.pathname}`);
} finally {
  await stack.stop();
}
