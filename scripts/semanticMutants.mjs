// `npm run mutation:semantic`: our own hand-written, realistic bugs (tests/semantic/mutants.json),
// each applied alone to a scratch copy of the repository and run against the tests that
// cover it. Stryker's operators (a `<` for a `<=`, a string emptied) do not write the bugs an
// engineer writes in a hurry — a size in UTF-16 units, a local-time parse, a bound on one of
// three times, a retry loop that forgets its deadline — so this set pins those. A mutant
// is killed when its tests fail (or time out), survives when they pass; the score is
// killed / (killed + survived), like Stryker's, and the run fails below the threshold.
//
//   node scripts/semanticMutants.mjs [--threshold 95] [--only id,id] [--keep] [--force]
//
// Incremental, like Stryker's: tests/semantic/results.json (committed) keeps each mutant's
// status under a key, the hash of its definition, the file it mutates and its test files. A
// mutant whose key is unchanged is not run again (CI's time: the whole set takes about half an
// hour on two cores); `--force` runs every one, and `--only` runs the ones it names. A timeout is
// never reused. The file is rewritten after each mutant, so a run cut off part-way keeps what
// it measured.
//
// The scratch copy is the working tree (tracked and untracked, not ignored files), so
// uncommitted changes are measured too. Its node_modules is a directory of links to this
// repository's packages except @rewards/*, whose relative links point at the copy's own
// packages: a mutant in the copy is what every import of it sees. Tests run in-process in
// the copy with vitest's far-east projects (TZ=Pacific/Kiritimati), one vitest at a time.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";

const root = join(dirname(new URL(import.meta.url).pathname), "..");
const { values } = parseArgs({
  options: {
    threshold: { type: "string", default: "95" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    force: { type: "boolean", default: false },
    timeout: { type: "string", default: "180" },
  },
});
const threshold = Number(values.threshold);
const timeoutMs = Number(values.timeout) * 1000;
const listFile = join(root, "tests/semantic/mutants.json");
const all = JSON.parse(readFileSync(listFile, "utf8")).mutants;
const only = values.only ? new Set(values.only.split(",")) : undefined;
const chosen = only ? all.filter((m) => only.has(m.id)) : all;

// What a mutant's result depends on that we can name: its own definition, the file it changes
// and the tests that must catch it. A change elsewhere (a helper the tests import) is not seen:
// run with --force after changing shared test support.
function keyOf(mutant) {
  const hash = createHash("sha256").update(JSON.stringify(mutant));
  for (const file of [mutant.file, ...mutant.tests]) {
    const path = join(root, file);
    hash.update(`\0${file}\0`);
    hash.update(existsSync(path) ? readFileSync(path) : "(missing)");
  }
  return hash.digest("hex");
}
const resultsFile = join(root, "tests/semantic/results.json");
function readResults() {
  if (!existsSync(resultsFile)) return {};
  try {
    return JSON.parse(readFileSync(resultsFile, "utf8")).results ?? {};
  } catch {
    console.error(`${resultsFile} is not readable JSON: every mutant runs again`);
    return {};
  }
}
const known = readResults();
// A timeout on a busy machine may be the load's, not the mutant's: it is measured again.
const REUSABLE = new Set(["killed", "survived"]);
// Each key is taken now, from the bytes the scratch copy is made of: an edit during the run
// must not give an old result the new code's key.
const keys = new Map(chosen.map((mutant) => [mutant.id, keyOf(mutant)]));
// --only names mutants to measure now: it runs them whatever their key.
const reuse = !values.force && !only;
const reused = [];
const mutants = [];
for (const mutant of chosen) {
  const was = known[mutant.id];
  if (reuse && was?.key === keys.get(mutant.id) && REUSABLE.has(was.status)) reused.push({ mutant, ...was });
  else mutants.push(mutant);
}
function saveResults(fresh) {
  const ids = new Set(all.map((m) => m.id));
  // What is on disk now (another run may have saved since), then this run's results over it.
  const merged = Object.fromEntries(Object.entries(readResults()).filter(([id]) => ids.has(id)));
  for (const r of fresh)
    merged[r.mutant.id] = { key: keys.get(r.mutant.id), status: r.status, seconds: r.seconds };
  const sorted = Object.fromEntries(all.filter((m) => merged[m.id]).map((m) => [m.id, merged[m.id]]));
  // Written beside, then renamed: a run killed mid-write leaves the last whole file.
  const partial = `${resultsFile}.partial`;
  writeFileSync(
    partial,
    `${JSON.stringify({ about: "written by scripts/semanticMutants.mjs: each mutant's last status, under the hash of its definition, file and tests", results: sorted }, null, 2)}\n`,
  );
  renameSync(partial, resultsFile);
}

function run(cmd, args, cwd, limitMs = timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      resolve({ code: null, timedOut: true, output });
    }, limitMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut: false, output });
    });
  });
}

async function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), "rewards-semantic-"));
  const listed = await run("git", ["ls-files", "-z", "-co", "--exclude-standard"], root);
  for (const file of listed.output.split("\0").filter(Boolean)) {
    try {
      cpSync(join(root, file), join(dir, file), { verbatimSymlinks: true });
    } catch (error) {
      // A file deleted in the working tree but still tracked: nothing to copy.
      if (error.code !== "ENOENT") throw error;
    }
  }
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name === "@rewards" || name === ".bin") continue;
    symlinkSync(join(root, "node_modules", name), join(modules, name));
  }
  // Relative links (../../packages/x, and .bin's ../@rewards/cli/bin/rewards.js, which the tests
  // run): in the copy they name the copy's packages, so a child process runs the mutant too.
  for (const name of ["@rewards", ".bin"])
    cpSync(join(root, "node_modules", name), join(modules, name), {
      recursive: true,
      verbatimSymlinks: true,
    });
  return dir;
}

const vitest = (dir, tests, limitMs = timeoutMs) =>
  run(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      "--project",
      "unit-far-east",
      "--project",
      "integration-far-east",
      "--bail",
      "1",
      ...tests,
    ],
    dir,
    limitMs,
  );

function check(mutant, source) {
  const count = source.split(mutant.original).length - 1;
  if (count !== 1)
    return `its original snippet occurs ${count} times in ${mutant.file} (must be exactly once)`;
  return undefined;
}

// Tests that run a function's deployable bundle (the local function runtime) read
// packages/*/dist, which the copy lacks (ignored files are not copied): build them, and build
// them again around each mutant of a file a bundle inlines, so the bundle runs the mutant.
const BUNDLED = /^packages\/(core|worker|announcer|history|read-api)\/src\//;
async function buildBundles(dir) {
  const built = await run(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/buildFunction.ts", "--no-cli"],
    dir,
  );
  if (built.code !== 0) {
    console.error(built.output.slice(-4000));
    console.error("the functions' bundles do not build");
    process.exit(2);
  }
}

const started = Date.now();
for (const r of reused) console.log(`= ${r.status}  ${r.mutant.id} (unchanged since its last run)`);
/** This run's own results, saved after each one. */
const measured = [];

async function runMutants(dir) {
  // The covering tests must pass before any mutant is applied, or a kill means nothing.
  const covering = [...new Set(mutants.flatMap((m) => m.tests))];
  // Every covering test file at once: the per-mutant limit would cut a baseline of many files
  // short (one integration file alone can take two minutes), so it gets a minute a file.
  const baseline = await vitest(dir, covering, Math.max(timeoutMs, covering.length * 60_000));
  if (baseline.code !== 0) {
    console.error(baseline.output.slice(-4000));
    console.error("the covering tests fail without any mutant: fix them first");
    process.exit(2);
  }
  for (const mutant of mutants) {
    const path = join(dir, mutant.file);
    const source = readFileSync(path, "utf8");
    const problem = check(mutant, source);
    if (problem) {
      measured.push({ mutant, status: "invalid", note: problem });
      saveResults(measured);
      console.log(`! ${mutant.id}: ${problem}`);
      continue;
    }
    writeFileSync(
      path,
      source.replace(mutant.original, () => mutant.replacement),
    );
    const t0 = Date.now();
    const bundled = BUNDLED.test(mutant.file);
    if (bundled) await buildBundles(dir);
    const outcome = await vitest(dir, mutant.tests);
    writeFileSync(path, source);
    if (bundled) await buildBundles(dir);
    const status = outcome.timedOut ? "timeout" : outcome.code === 0 ? "survived" : "killed";
    const seconds = Number(((Date.now() - t0) / 1000).toFixed(1));
    measured.push({ mutant, status, seconds });
    saveResults(measured);
    console.log(
      `${status === "survived" ? "✗ SURVIVED" : `✓ ${status}`}  ${mutant.id} (${seconds}s) — ${mutant.story}`,
    );
  }
}

if (mutants.length > 0) {
  const dir = await scratchCopy();
  try {
    await buildBundles(dir);
    console.log(`scratch copy: ${dir}; ${mutants.length} to run, ${reused.length} unchanged`);
    await runMutants(dir);
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

const results = [...reused, ...measured];
const count = (status) => results.filter((r) => r.status === status).length;
const killed = count("killed") + count("timeout");
const survived = count("survived");
const invalid = count("invalid");
const score = killed + survived === 0 ? 0 : (100 * killed) / (killed + survived);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log("");
console.log(
  `semantic mutants: ${killed} killed (${count("timeout")} by timeout), ${survived} survived, ${invalid} invalid`,
);
console.log(
  `score ${score.toFixed(2)}% (threshold ${threshold}%) in ${minutes} min; ${reused.length} unchanged since their last run (tests/semantic/results.json), ${mutants.length} run now`,
);
for (const r of results.filter((x) => x.status === "survived")) {
  console.log(`  survived: ${r.mutant.id} in ${r.mutant.file}: ${r.mutant.story}`);
}
const byPackage = {};
for (const r of results) {
  const pkg = r.mutant.file.split("/")[1];
  byPackage[pkg] ??= { killed: 0, total: 0 };
  byPackage[pkg].total++;
  if (r.status === "killed" || r.status === "timeout") byPackage[pkg].killed++;
}
console.log(
  `by package: ${Object.entries(byPackage)
    .map(([p, s]) => `${p} ${s.killed}/${s.total}`)
    .join(", ")}`,
);
process.exit(invalid > 0 || score < threshold ? 1 : 0);
