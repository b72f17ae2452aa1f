/**
 * The read side, on the local stack: the reader library's calls at 25 and 50 ms a
 * DynamoDB call (round trips, p50/p99, read units), the read API's requests on a warm function
 * (the deployable bundle in the local function runtime: p50/p99 per route, requests per second
 * at a few in flight), the read bundle's cold start, the lag from an award's commit to its
 * history item, and the write units an award costs with the history.
 *
 *   npx tsx bench/reader.ts [--calls 50] [--awards 60] [--lag 40] [--out bench/results.reader.json]
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type ConsumedCapacity, DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { grantId, guardKey, historyItemKey } from "@rewards/core";
import { createLogger } from "@rewards/core/aws";
import { toolConfigFrom } from "@rewards/core/deploy";
import {
  deployedHistorySettings,
  type FaultRule,
  startFaultProxy,
  startLocalHistory,
  startLocalReadApi,
  startLocalStack,
} from "@rewards/local";
import { createReader } from "@rewards/reader";
import { waitUntilAnnounced } from "@rewards/scenario";
import { completed, eventBody, lambdaContext, signup, sqsEvent, sqsRecord } from "@rewards/testing";
import { createHandler, createWorkerDeps } from "@rewards/worker";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "50" },
    awards: { type: "string", default: "60" },
    lag: { type: "string", default: "40" },
    cold: { type: "string", default: "10" },
    out: { type: "string" },
  },
});
const CALLS = Number(values.calls);
const AWARDS = Number(values.awards);
const LAG_AWARDS = Number(values.lag);
const COLD_RUNS = Number(values.cold);
const root = fileURLToPath(new URL("..", import.meta.url));
const credentials = { accessKeyId: "test", secretAccessKey: "test" };
const CAP = 1_000_000;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (text: string) => process.stderr.write(`${text}\n`);

/** A client that records the read units DynamoDB says each call consumed (ReturnConsumedCapacity TOTAL). */
function measuredClient(endpoint: string) {
  const client = new DynamoDBClient({ region: "us-east-1", endpoint, credentials, maxAttempts: 1 });
  const units: number[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
      units.push(list.reduce((sum, c) => sum + (c.CapacityUnits ?? c.ReadCapacityUnits ?? 0), 0));
      return out;
    },
    { step: "initialize" },
  );
  return { client, units };
}

const stack = await startLocalStack({ tableName: "bench-reader" });
const env: Record<string, string> = { ...stack.env, LOG_LEVEL: "silent" };
const config = toolConfigFrom(env, "TABLE_NAME");
const history = await startLocalHistory({
  config,
  code: "artifact",
  settings: { ...deployedHistorySettings(), pollIntervalMs: 50, retryDelayMs: 50 },
  logger: createLogger({ level: "silent" }),
});
try {
  // --- a reader with AWARDS awards over four rules, in batches of 10 -------------------------
  const worker = createHandler({ ...createWorkerDeps(env), emitMetrics: () => {} });
  const user = "bench-reader";
  const bodies = Array.from({ length: AWARDS }, (_, i) =>
    i === 0
      ? signup(user)
      : i % 3 === 0
        ? eventBody("article.shared", { userId: user, articleSlug: `s-${i}`, channel: "email" })
        : completed(user, `a-${i}`),
  );
  for (let i = 0; i < bodies.length; i += 10)
    await worker(sqsEvent(bodies.slice(i, i + 10).map((b) => sqsRecord(b))), lambdaContext());
  await waitUntilAnnounced(history.source, Date.now(), 60_000);

  // --- 1. the library at 25 and 50 ms a call ------------------------------------------------
  const library: Record<string, unknown>[] = [];
  for (const roundTripMs of [25, 50]) {
    const rules: FaultRule[] = [{ operation: "*", fault: "latency", probability: 1, fixedMs: roundTripMs }];
    const proxy = await startFaultProxy({ target: stack.endpoints.dynamodb, rules, seed: 1 });
    const { client, units } = measuredClient(proxy.endpoint);
    const calls = {
      "profile, with a cap": createReader({ tableName: config.TABLE_NAME, client, dailyCap: CAP }),
      "profile, no cap": createReader({ tableName: config.TABLE_NAME, client }),
    };
    const measure = async (name: string, call: () => Promise<unknown>) => {
      for (let i = 0; i < 3; i++) await call();
      units.length = 0;
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
      const p50 = percentile(times, 50);
      library.push({
        call: name,
        roundTripMs,
        p50Ms: round(p50),
        p99Ms: round(percentile(times, 99)),
        roundTrips: round(p50 / roundTripMs, 2),
        readUnitsPerCall: round(units.reduce((a, b) => a + b, 0) / CALLS, 2),
        dynamoCallsPerCall: round(units.length / CALLS, 2),
      });
    };
    await measure("profile, with a cap", () => calls["profile, with a cap"].profile(user));
    await measure("profile, no cap", () => calls["profile, no cap"].profile(user));
    await measure("history, a page of 20", () => calls["profile, no cap"].history(user, { limit: 20 }));
    client.destroy();
    await proxy.stop();
  }
  log("library: done");

  // --- 2. the read API on a warm function (the deployable bundle) ----------------------------
  const api = await startLocalReadApi({ config, code: "artifact" });
  const apiRows: Record<string, unknown>[] = [];
  try {
    for (const [route, path] of [
      ["/users/{userId}", `/users/${user}`],
      ["/users/{userId}/awards", `/users/${user}/awards?limit=20`],
    ] as const) {
      const get = async () => {
        const answer = await fetch(`${api.url}${path}`);
        if (answer.status !== 200) throw new Error(`${route}: ${answer.status}`);
        await answer.arrayBuffer();
      };
      // Warm: as many environments as requests will be in flight, each past its first request.
      const inFlight = 4;
      for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: inFlight }, get));
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await get();
        times.push(performance.now() - started);
      }
      // Throughput with 4 in flight, on the warm environments.
      const started = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          for (let i = 0; i < CALLS / inFlight; i++) await get();
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      apiRows.push({
        route,
        p50Ms: round(percentile(times, 50)),
        p99Ms: round(percentile(times, 99)),
        requestsPerSecond: round((Math.floor(CALLS / inFlight) * inFlight) / seconds, 0),
        inFlight,
      });
    }
  } finally {
    await api.stop();
  }
  log("read API: done");

  // --- 3. the read bundle's cold start: a fresh node process until its handler is ready ------
  const PROBE = `
const started = performance.now();
const { handler } = await import(process.argv[1]);
const initMs = performance.now() - started;
const t = performance.now();
const answer = await handler(JSON.parse(process.argv[2]), { getRemainingTimeInMillis: () => 10000 });
process.stdout.write(JSON.stringify({ initMs, firstRequestMs: performance.now() - t, status: answer.statusCode }));
`;
  const event = {
    version: "2.0",
    rawPath: `/users/${user}`,
    rawQueryString: "",
    headers: {},
    requestContext: { http: { method: "GET", path: `/users/${user}` } },
    isBase64Encoded: false,
  };
  const cold: Array<{ readyMs: number; initMs: number; firstRequestMs: number }> = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const started = performance.now();
    const out = await new Promise<string>((resolve, reject) => {
      let text = "";
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          PROBE,
          `${root}packages/read-api/dist/handler.mjs`,
          JSON.stringify(event),
        ],
        {
          env: {
            PATH: process.env.PATH ?? "",
            ...env,
          },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      child.once("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`probe exit ${code}`))));
    });
    // The function's own lines (its request log, its EMF) come first: the probe's is the last.
    const sample = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
      initMs: number;
      firstRequestMs: number;
      status: number;
    };
    if (sample.status !== 200) throw new Error(`cold start: status ${sample.status}`);
    cold.push({
      readyMs: performance.now() - started,
      initMs: sample.initMs,
      firstRequestMs: sample.firstRequestMs,
    });
  }
  log("cold start: done");

  // --- 4. commit → history item, one award at a time -----------------------------------------
  const probe = new DynamoDBClient({ region: "us-east-1", endpoint: stack.endpoints.dynamodb, credentials });
  const lags: number[] = [];
  for (let i = 0; i < LAG_AWARDS; i++) {
    const lagUser = `lag-${i}`;
    const intentKey = `${lagUser}#a#article.completed`;
    await worker(
      sqsEvent([sqsRecord(eventBody("article.completed", { userId: lagUser, articleSlug: "a" }))]),
      lambdaContext(),
    );
    const committed = Date.now();
    const guard = await probe.send(
      new GetItemCommand({
        TableName: config.TABLE_NAME,
        Key: marshall(guardKey(intentKey)),
        ConsistentRead: true,
      }),
    );
    const awardedAt = guard.Item?.awardedAt?.S ?? "";
    const key = historyItemKey(lagUser, awardedAt, grantId(intentKey, awardedAt));
    for (;;) {
      const found = await probe.send(
        new GetItemCommand({ TableName: config.TABLE_NAME, Key: marshall(key), ConsistentRead: true }),
      );
      if (found.Item) break;
      if (Date.now() - committed > 30_000) throw new Error(`no history item for ${intentKey} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // From the commit's instant (awardedAt is set just before the transaction is sent).
    lags.push(Date.now() - Date.parse(awardedAt));
  }
  probe.destroy();
  log("lag: done");

  const results = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    user: { awards: AWARDS },
    library,
    readApi: apiRows,
    coldStart: {
      runs: COLD_RUNS,
      readyMsP50: round(
        percentile(
          cold.map((c) => c.readyMs),
          50,
        ),
      ),
      readyMsP90: round(
        percentile(
          cold.map((c) => c.readyMs),
          90,
        ),
      ),
      initMsP50: round(
        percentile(
          cold.map((c) => c.initMs),
          50,
        ),
      ),
      firstRequestMsP50: round(
        percentile(
          cold.map((c) => c.firstRequestMs),
          50,
        ),
      ),
    },
    historyLag: {
      awards: LAG_AWARDS,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: Math.max(...lags),
    },
    // Computed from the transaction's items (2k + 2) and one standard PutItem a history item (≤ 1 KB).
    writeUnitsPerAward: { alone: 4 + 1, fiveOfOneUser: round((2 * 5 + 2) / 5 + 1, 2) },
  };
  const text = `${JSON.stringify(results, null, 2)}\n`;
  process.stdout.write(text);
  if (values.out) await writeFile(values.out, text);
} finally {
  await history.stop();
  await stack.stop();
}
