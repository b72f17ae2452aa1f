#!/usr/bin/env node
// Runs before `npm start` and `npm test` (prestart/pretest) on a fresh clone or an old one.
// Dependency-free on purpose: it is what installs the dependencies.
//   1. node_modules missing or older than the lockfile/manifests -> `npm ci`
//   2. moto[server] 5.2.x importable by python3 or .venv/bin/python -> nothing to do;
//      otherwise create .venv and pip-install it there; if that fails, say what to install.
//   3. the CLI's bundle (packages/cli/dist) missing or older than a file it was built from
//      -> scripts/buildCli.ts, so the `rewards` after it runs plain JavaScript, not tsx.
// Its checks are exported for tests/bootstrap.test.ts; run as a script, it does all three.
//
// Which Node runs it: npm puts node_modules/.bin first in a script's PATH, and the `node` dev
// dependency puts Node 22 there. On a fresh clone there is no node_modules yet, so this script
// alone runs on the machine's Node (>= 20 is enough: it only spawns npm, Python and tsx); the
// tsx it spawns, and every script and `npx` command after the install, run on Node 22.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const MOTO_REQUIREMENT = "moto[server]==5.2.1";
const STAMP = join(root, "node_modules", ".rewards-install-stamp");

/** The root manifest, the lockfile and every workspace's manifest (the root's `workspaces`, as npm reads them). */
export function manifestsOf(rootDir = root) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(rootDir, "package.json"), "utf8"));
  return ["package.json", "package-lock.json", ...workspaces.map((w) => `${w}/package.json`)];
}

function fail(message) {
  process.stderr.write(`\nbootstrap: ${message}\n\n`);
  process.exit(1);
}

function say(message) {
  process.stderr.write(`bootstrap: ${message}\n`);
}

const [major] = process.versions.node.split(".").map(Number);
if (major < 20) fail(`Node.js >= 20 is required to install, this is ${process.version}`);

function manifestsHash() {
  const hash = createHash("sha256");
  for (const file of manifestsOf()) {
    const path = join(root, file);
    hash.update(file).update(existsSync(path) ? readFileSync(path) : "");
  }
  return hash.digest("hex");
}

function ensureNodeModules() {
  const wanted = manifestsHash();
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === wanted) return;
  const command = existsSync(join(root, "package-lock.json")) ? "ci" : "install";
  say(`node_modules missing or stale: running npm ${command}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, [command, "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) fail(`npm ${command} failed (exit ${result.status}); see the output above`);
  writeFileSync(STAMP, wanted);
}

/**
 * The Node the project runs on: node_modules/.bin/node, the `node` dev dependency (its install
 * script fetches the binary). Without it (install scripts ignored, say) npm's scripts fall back to
 * the machine's Node: said, not fatal.
 */
function checkProjectNode() {
  const probe = spawnSync(join(root, "node_modules", ".bin", "node"), ["-p", "process.versions.node"], {
    encoding: "utf8",
  });
  const version = probe.status === 0 ? probe.stdout.trim() : "";
  if (Number(version.split(".")[0]) >= 22) return;
  say(
    `node_modules/.bin/node is ${version ? `Node ${version}` : "missing"}, not Node >= 22: npm's scripts run on ` +
      `${process.version}. Its install script did not run: run npm ci with install scripts allowed (not --ignore-scripts).`,
  );
}

const MOTO_PROBE = [
  "import importlib.metadata as m, sys",
  "import moto.dynamodb.models, moto.moto_server.werkzeug_app",
  "v = m.version('moto')",
  "sys.exit(0 if v.startswith('5.2.') else 4)",
].join("; ");

function motoWorks(python) {
  return spawnSync(python, ["-c", MOTO_PROBE], { stdio: "ignore" }).status === 0;
}

function ensureMoto() {
  const venvPython = join(root, ".venv", "bin", "python");
  if (process.env.REWARDS_PYTHON) {
    if (motoWorks(process.env.REWARDS_PYTHON)) return;
    fail(
      `REWARDS_PYTHON=${process.env.REWARDS_PYTHON} cannot import moto 5.2.x; install ${MOTO_REQUIREMENT} into it`,
    );
  }
  if (existsSync(venvPython) && motoWorks(venvPython)) return;
  if (motoWorks("python3")) return;
  say(`moto 5.2.x not found: installing ${MOTO_REQUIREMENT} into .venv/`);
  try {
    if (!existsSync(venvPython))
      execFileSync("python3", ["-m", "venv", join(root, ".venv")], { stdio: "inherit" });
    execFileSync(venvPython, ["-m", "pip", "install", "--quiet", MOTO_REQUIREMENT], { stdio: "inherit" });
  } catch {
    // fall through to the message below
  }
  if (!motoWorks(venvPython)) {
    fail(
      `the local DynamoDB needs Python 3 with ${MOTO_REQUIREMENT}, and it could not be installed.\n` +
        `Install it yourself (pip install '${MOTO_REQUIREMENT}') and run the command again,\n` +
        "or point REWARDS_PYTHON at a Python that has it.",
    );
  }
}

/**
 * The CLI's bundle is fresh when it exists and no file it was built from (dist/inputs.json,
 * written by scripts/buildCli.ts) is newer: the test packages/cli/bin/rewards.js makes before
 * it runs the bundle. A stat per input, no hashing: a few milliseconds.
 */
export function cliBundleIsFresh(rootDir = root) {
  try {
    const built = statSync(join(rootDir, "packages/cli/dist/rewards.mjs")).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(rootDir, "packages/cli/dist/inputs.json"), "utf8"));
    return inputs.every((path) => statSync(join(rootDir, path)).mtimeMs <= built);
  } catch {
    return false;
  }
}

export function ensureCliBundle(rootDir = root) {
  if (cliBundleIsFresh(rootDir)) return;
  say("the CLI's bundle is missing or older than its sources: building it (scripts/buildCli.ts)");
  const tsx = join(rootDir, "node_modules", ".bin", "tsx");
  const result = spawnSync(tsx, [join(rootDir, "scripts", "buildCli.ts")], {
    cwd: rootDir,
    stdio: "inherit",
  });
  // Not fatal: without the bundle, `rewards` runs its source through tsx (slower to start).
  if (result.status !== 0)
    say(`building the CLI's bundle failed (exit ${result.status}); rewards runs from source`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNodeModules();
  checkProjectNode();
  ensureMoto();
  ensureCliBundle();
}
