/**
 * End to end on the local stack: publish → queue → poller → function → table.
 * The poller is a separate `rewards worker` process, and the function runs in processes of
 * its own (as on Lambda): we sample the RSS of both every 500 ms and report the peaks and
 * the growth after warm-up.
 *
 *   npx tsx bench/e2e.ts [--events 100000] [--function source|artifact]
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { startLocalStack } from "@rewards/local";
import { compareXp, queueCounts, waitForDrain } from "@rewards/ops";
import { generateTraffic, sendTraffic } from "@rewards/scenario";
import { childrenOf, startCli } from "@rewards/testing";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "100000" },
    function: { type: "string", default: "artifact" },
  },
});
const events = Number(values.events);
const code = values.function;
const WAVE = 5000;

function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0; // the process has gone
  }
}
/** The function's execution environments: the worker's children running the bundle. */
const functionPids = (pid: number) =>
  childrenOf(pid, "bootstrap.mjs").map((line) => Number(line.split(/\s+/)[0]));

// The deployed queue settings: the poller (rightly) refuses a function timeout that is not
// shorter than the visibility timeout, and the deployed one is 211 s for a 30 s function.
const stack = await startLocalStack();
const worker = startCli(["worker", "--wait", "1", "--json", "--function", code], {
  ...stack.env,
  LOG_LEVEL: "warn",
});
try {
  const sqs = createSqsClient({ ...stack.env, AWS_REGION: "us-east-1" });
  const traffic = generateTraffic({ events, users: 1000, duplicates: 0.25, invalid: 0.01, seed: 2026 });
  const samples: Array<{ published: number; rssMb: number; functionRssMb: number }> = [];
  const functionPeaks = new Map<number, number>();
  let published = 0;
  const sampler = setInterval(() => {
    const pid = worker.child.pid;
    if (!pid) return;
    const functions = functionPids(pid);
    for (const f of functions) functionPeaks.set(f, Math.max(functionPeaks.get(f) ?? 0, rssMb(f, "VmHWM")));
    samples.push({
      published,
      rssMb: rssMb(pid, "VmRSS"),
      functionRssMb: functions.reduce((sum, f) => sum + rssMb(f, "VmRSS"), 0),
    });
  }, 500);

  const started = performance.now();
  for (let offset = 0; offset < traffic.messages.length; offset += WAVE) {
    // Keep the backlog bounded, as a steady producer would, so the poller never idles.
    while ((await queueCounts(sqs, stack.resources.queueUrl)).visible > WAVE) await delay(100);
    const report = await sendTraffic(traffic.messages.slice(offset, offset + WAVE), {
      sqs,
      queueUrl: stack.resources.queueUrl,
    });
    if (report.failed.length > 0) throw new Error(`${report.failed.length} sends failed`);
    published += report.sent;
  }
  if (!(await waitForDrain(sqs, stack.resources.queueUrl, 600_000))) throw new Error("did not drain");
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peakRssMb = worker.child.pid ? rssMb(worker.child.pid, "VmHWM") : Number.NaN;
  worker.child.kill("SIGTERM");
  await worker.exited;

  const check = await compareXp(
    createDynamoClient({ ...stack.env, AWS_REGION: "us-east-1" }),
    stack.resources.tableName,
    traffic.expectedXp,
  );
  const afterWarmup = samples.filter((s) => s.published >= events * 0.1);
  const firstAfterWarmup = afterWarmup[0]?.rssMb ?? Number.NaN;
  const last = samples.at(-1)?.rssMb ?? Number.NaN;
  process.stdout.write(
    `${JSON.stringify(
      {
        events,
        seconds: Number(seconds.toFixed(1)),
        eventsPerSecond: Math.round(events / seconds),
        exactTotals: check.mismatches.length === 0,
        function: code,
        functionEnvironments: functionPeaks.size,
        functionPeakRssMb: Math.max(0, ...functionPeaks.values()),
        maxSampledFunctionRssMbTotal: Math.max(0, ...samples.map((s) => s.functionRssMb)),
        poller: {
          peakRssMb,
          rssAfterWarmupMb: firstAfterWarmup,
          rssAtEndMb: last,
          growthAfterWarmupMb: Number((last - firstAfterWarmup).toFixed(1)),
          maxSampledRssMb: Math.max(...samples.map((s) => s.rssMb)),
        },
        targets: { peakRssMb: 200 },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  worker.child.kill("SIGKILL");
  await stack.stop();
}
