/**
 * Cold start of the worker function as deployed: a fresh `node` process that imports the
 * bundle (Lambda's init) until its handler is ready, then its first batch (10 new awards)
 * against the local stack; beside bare `node` startup measured in the same run, and two
 * alternative builds (not minified; the AWS SDK left to the runtime). Processes of the
 * variants take turns, so machine load falls on all alike.
 *
 *   npx tsx bench/coldStart.ts [--runs 20] [--out bench/results.coldstart.json]
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startLocalStack } from "@rewards/local";
import { completed, sqsEvent, sqsRecord } from "@rewards/testing";
import { type BuildVariant, buildFunction } from "../scripts/buildFunction";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "20" }, out: { type: "string" } },
});
const RUNS = Number(values.runs);
const root = fileURLToPath(new URL("..", import.meta.url));

/** Runs inside the fresh process: import (init), say how long, run one batch, say how long. */
const PROBE = `
const started = performance.now();
const { handler } = await import(process.argv[2]);
const initMs = performance.now() - started;
process.stdout.write(JSON.stringify({ ready: true }) + "\\n");
const event = JSON.parse(process.argv[3]);
const batchStarted = performance.now();
const deadline = Date.now() + 30000;
const response = await handler(event, { getRemainingTimeInMillis: () => deadline - Date.now() });
process.stdout.write(JSON.stringify({ initMs, firstBatchMs: performance.now() - batchStarted, failures: response.batchItemFailures.length }) + "\\n");
process.exit(0);
`;

interface Sample {
  /** From spawn until the handler is ready: node's own start plus the bundle's init. */
  readyMs: number;
  firstBatchMs: number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const round = (n: number) => Math.round(n * 10) / 10;

function run(args: string[], env: Record<string, string>, cwd: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let readyMs = Number.NaN;
    let out = "";
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (chunk: Buffer) => {
      if (Number.isNaN(readyMs)) readyMs = performance.now() - started;
      out += chunk;
    });
    child.once("exit", (code) => {
      const last = out.trim().split("\n").at(-1);
      if (code !== 0 || !last) return reject(new Error(`probe exited ${code}: ${out}`));
      const result = JSON.parse(last) as { firstBatchMs?: number; failures?: number };
      if (result.failures) return reject(new Error(`${result.failures} failures in the first batch`));
      resolve({ readyMs, firstBatchMs: result.firstBatchMs ?? 0 });
    });
    child.once("error", reject);
  });
}

const work = await mkdtemp(join(tmpdir(), "coldstart-"));
const variants: Array<{ name: string; variant: BuildVariant; dir: string }> = [
  { name: "deployed (ESM, minified, SDK bundled)", variant: "deployed", dir: join(work, "deployed") },
  { name: "not minified", variant: "unminified", dir: join(work, "unminified") },
  { name: "SDK left to the runtime", variant: "sdk-external", dir: join(work, "sdk-external") },
];
const sizes: Record<string, number> = {};
for (const v of variants) {
  await mkdir(v.dir, { recursive: true });
  const { bytes } = await buildFunction({ variant: v.variant, outfile: join(v.dir, "handler.mjs") });
  sizes[v.name] = bytes;
  await writeFile(join(v.dir, "probe.mjs"), PROBE);
  // Lambda's runtime has the SDK under /var/runtime/node_modules; here the repository's stands in.
  if (v.variant === "sdk-external") await symlink(join(root, "node_modules"), join(v.dir, "node_modules"));
}
await writeFile(
  join(work, "bare.mjs"),
  `process.stdout.write(JSON.stringify({ ready: true }) + "\\n"); process.exit(0);\n`,
);

const stack = await startLocalStack();
try {
  const env = {
    ...stack.env,
    PATH: process.env.PATH ?? "",
    LOG_LEVEL: "silent",
  };
  const samples: Record<string, Sample[]> = {
    "bare node": [],
    ...Object.fromEntries(variants.map((v) => [v.name, []])),
  };
  let user = 0;
  for (let i = 0; i < RUNS; i++) {
    samples["bare node"]?.push(await run([join(work, "bare.mjs")], env, work));
    for (const v of variants) {
      const batch = sqsEvent(
        Array.from({ length: 10 }, () => sqsRecord(completed(`cold-${i}-${user++}`, "a"))),
      );
      samples[v.name]?.push(
        await run([join(v.dir, "probe.mjs"), "./handler.mjs", JSON.stringify(batch)], env, v.dir),
      );
    }
  }
  const bareMedian = percentile(
    (samples["bare node"] ?? []).map((s) => s.readyMs),
    50,
  );
  const rows = Object.entries(samples).map(([name, list]) => {
    const ready = list.map((s) => s.readyMs);
    const batch = list.map((s) => s.firstBatchMs);
    return {
      name,
      bundleKiB: sizes[name] === undefined ? null : Math.round((sizes[name] ?? 0) / 1024),
      readyMedianMs: round(percentile(ready, 50)),
      readyP90Ms: round(percentile(ready, 90)),
      initOverBareNodeMs: name === "bare node" ? 0 : round(percentile(ready, 50) - bareMedian),
      firstBatchMedianMs: name === "bare node" ? null : round(percentile(batch, 50)),
      firstBatchP90Ms: name === "bare node" ? null : round(percentile(batch, 90)),
    };
  });
  const report = {
    generatedAt: new Date().toISOString(),
    runs: RUNS,
    node: process.version,
    goal: "the deployed bundle's init within 100 ms of bare node startup",
    rows,
  };
  const text = `${JSON.stringify(report, null, 2)}\n`;
  if (values.out) await writeFile(values.out, text);
  process.stdout.write(text);
  await stat(work);
} finally {
  await stack.stop();
}
