/**
 * Repair at scale, on the local stack: readers paid with no history's writer running (as under
 * `rewards dev --no-history`), then `history rebuild --all`'s pass (repairReaders) as a dry run,
 * for real, and again (nothing left to write), each timed, with what each did; and the table
 * read alone, in 1 and 4 segments, side by side (docs/operations.md, "Repair at scale").
 *
 *   npx tsx bench/repair.ts [--awards 3000] [--readers 800] [--out bench/results.repair.json]
 */
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createDynamoClient } from "@rewards/core/aws";
import { startLocalStack } from "@rewards/local";
import { readTable, repairReaders } from "@rewards/ops";
import { completed, eventBody, lambdaContext, sqsEvent, sqsRecord } from "@rewards/testing";
import { createHandler, createWorkerDeps } from "@rewards/worker";

const { values } = parseArgs({
  options: {
    awards: { type: "string", default: "3000" },
    readers: { type: "string", default: "800" },
    out: { type: "string" },
  },
});
const AWARDS = Number(values.awards);
const READERS = Number(values.readers);
const log = (text: string) => process.stderr.write(`${text}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

const stack = await startLocalStack({ tableName: "bench-repair" });
const env: Record<string, string> = { ...stack.env, LOG_LEVEL: "silent" };
const tableName = stack.resources.tableName;
const dynamo = createDynamoClient(env);
try {
  // Articles and a few days each, ten messages a batch, straight into the worker's handler.
  const worker = createHandler({ ...createWorkerDeps(env), emitMetrics: () => {} });
  const today = Date.now();
  const bodies = Array.from({ length: AWARDS }, (_, i) => {
    const reader = `bench-${i % READERS}`;
    const n = Math.floor(i / READERS);
    return n % 3 === 2
      ? eventBody("streak.day", {
          userId: reader,
          day: new Date(today - n * 86_400_000).toISOString().slice(0, 10),
        })
      : completed(reader, `article-${n}`);
  });
  const loadStarted = performance.now();
  for (let i = 0; i < bodies.length; i += 10)
    await worker(sqsEvent(bodies.slice(i, i + 10).map((body) => sqsRecord(body))), lambdaContext());
  log(`paid ${AWARDS} awards to ${READERS} readers in ${seconds(performance.now() - loadStarted)} s`);

  const read: Record<string, number> = {};
  for (const segments of [1, 4]) {
    const started = performance.now();
    const snapshot = await readTable(dynamo, tableName, { segments });
    read[`segments${segments}`] = seconds(performance.now() - started);
    log(`read ${snapshot.items} items in ${segments} segment(s): ${read[`segments${segments}`]} s`);
  }
  const options = { tableName, counts: false, rebuild: { historyDays: 400 }, shards: 32, keepWeeks: 8 };
  const runs: Record<string, unknown> = {};
  for (const [name, dryRun] of [
    ["dryRun", true],
    ["run", false],
    ["again", false],
  ] as const) {
    const started = performance.now();
    const report = await repairReaders(dynamo, { ...options, dryRun });
    runs[name] = {
      seconds: seconds(performance.now() - started),
      items: report.read.items,
      written: report.history?.totals.written,
      daysKept: report.progress?.totals.daysKept,
      achieved: report.progress?.totals.achieved,
      weeksChanged: report.weeks?.totals.weeksChanged,
      waiting: report.progress?.totals.waiting,
    };
    log(`${name}: ${JSON.stringify(runs[name])}`);
  }
  const result = { awards: AWARDS, readers: READERS, read, ...runs };
  const text = `${JSON.stringify(result, null, 2)}\n`;
  process.stdout.write(text);
  if (values.out) await writeFile(values.out, text);
} finally {
  dynamo.destroy();
  await stack.stop();
}
