/**
 * What `rewards --version` and `rewards --help` cost: the CPU (user + sys) of a fresh process
 * running the bin (packages/cli/bin/rewards.js, which runs the bundle while it is fresh: build
 * it first, `npm run build:function`) against bare `node -e 0`, on the same Node. Goal: at most
 * 3× bare Node each (tests/cliStartup.test.ts holds what they load; timing stays here).
 *
 *   npx tsx bench/cliStartup.ts [--rounds 20] [--batch 10] [--out bench/results.cliStartup.json]
 *
 * Linux only: a child's CPU is read off /proc/self/stat (cutime + cstime, what the kernel adds
 * once a child is reaped), in clock ticks, so each sample is a batch of `--batch` runs of one
 * command (a tick over the batch); the variants take turns, a batch each, so the machine's
 * load falls on all alike; the figure is the median batch per run.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    batch: { type: "string", default: "10" },
    out: { type: "string" },
  },
});
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch);
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = `${root}packages/cli/bin/rewards.js`;
/** USER_HZ: Linux reports these times in hundredths of a second on every platform it runs on. */
const TICK_MS = 10;

/** This process's reaped children's CPU so far (user + sys), in ms. */
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command's name (which may hold spaces), from the state (field 3) on.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS; // cutime, cstime: fields 16 and 17
}

const variants: Array<{ name: string; args: string[] }> = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "rewards --version", args: [bin, "--version"] },
  { name: "rewards --help", args: [bin, "--help"] },
];

/** Whether the bin runs the bundle (else the source through tsx, and the figures say nothing). */
function bundleIsFresh(): boolean {
  try {
    const built = statSync(`${root}packages/cli/dist/rewards.mjs`).mtimeMs;
    const inputs = JSON.parse(readFileSync(`${root}packages/cli/dist/inputs.json`, "utf8")) as string[];
    return inputs.every((path) => statSync(root + path).mtimeMs <= built);
  } catch {
    return false;
  }
}
if (!bundleIsFresh()) {
  process.stderr.write("bench/cliStartup.ts: the CLI's bundle is missing or stale: npm run build:function\n");
  process.exit(1);
}

const env = { PATH: process.env.PATH ?? "", COLUMNS: "100" };
const perRun: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Rotated, so no variant always runs first in a round.
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[(round + i) % variants.length] as (typeof variants)[number];
    const before = childrenCpuMs();
    for (let n = 0; n < BATCH; n++) {
      const run = spawnSync(process.execPath, variant.args, { env, stdio: ["ignore", "pipe", "pipe"] });
      if (run.status !== 0) throw new Error(`${variant.name} exited ${run.status}: ${run.stderr}`);
    }
    perRun[variant.name]?.push((childrenCpuMs() - before) / BATCH);
  }
}

const median = (list: readonly number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const round1 = (n: number) => Math.round(n * 10) / 10;
const bare = median(perRun["node -e 0"] ?? []);
const rows = variants.map(({ name }) => {
  const cpu = median(perRun[name] ?? []);
  return { name, cpuMedianMs: round1(cpu), overBareNode: Math.round((cpu / bare) * 100) / 100 };
});
const report = {
  generatedAt: new Date().toISOString(),
  node: process.version,
  rounds: ROUNDS,
  batch: BATCH,
  goal: "rewards --version and rewards --help each at most 3× the CPU of node -e 0",
  met: rows.every((row) => row.overBareNode <= 3),
  rows,
};
const json = `${JSON.stringify(report, null, 2)}\n`;
if (values.out) writeFileSync(values.out, json);
process.stdout.write(json);
