#!/usr/bin/env node
// `npm run test:python`: the Python client (clients/python) against a real `rewards dev`.
//   1. a fresh virtual environment in node_modules/.cache/rewards/python-client (with the system's
//      site packages: pytest and boto3 come from there), the package installed into it as a user
//      would: `pip install --no-build-isolation --no-index ./clients/python`;
//   2. `rewards dev --json` started as a child process of its own (its fauxqs and servers keep their
//      event loop), ready when it prints its environment and READER_URL answers;
//   3. pytest over clients/python/tests with that environment (REWARDS_DEV_ENV), then dev stopped
//      (SIGINT, as Ctrl-C); the exit code is pytest's.
// PYTHON (default python3) is the interpreter; extra arguments go to pytest (`-- -k board`).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = join(root, "node_modules", ".cache", "rewards");
const venv = join(cache, "python-client");
const python = join(venv, "bin", "python");
const devLog = join(cache, "python-client-dev.log");
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;
const started = Date.now();

const say = (line) => process.stderr.write(`test:python: ${line}\n`);
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

function fail(message) {
  say(message);
  process.exit(1);
}

function setUp() {
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const base = process.env.PYTHON ?? "python3";
  try {
    execFileSync(base, ["-m", "venv", "--system-site-packages", venv], { stdio: "inherit" });
    execFileSync(
      python,
      [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-build-isolation",
        "--no-index",
        join(root, "clients", "python"),
      ],
      { stdio: "inherit" },
    );
  } catch (error) {
    fail(`could not install clients/python into a fresh venv with ${base}: ${error.message}`);
  }
  try {
    execFileSync(python, ["-c", "import pytest, boto3, botocore"], { stdio: "ignore" });
  } catch {
    fail(`the tests need pytest and boto3 in ${base}'s site packages (python3 -m pip install pytest boto3)`);
  }
  say(`clients/python installed into a fresh ${venv} (${seconds()})`);
}

/** `rewards dev --json` in a process of its own; resolves with its environment once it serves. */
function startDev() {
  const env = { ...process.env, LOG_LEVEL: "warn" };
  // The tests pay without a cap (`--daily-cap 0`), whatever the shell sets.
  delete env.REWARDS_DAILY_XP_CAP;
  const dev = spawn(
    join(root, "node_modules", ".bin", "rewards"),
    ["dev", "--json", "--wait", "1", "--no-site", "--daily-cap", "0"],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = [];
  dev.stderr.on("data", (chunk) => log.push(chunk));
  const exited = new Promise((resolve) => dev.on("exit", (code, signal) => resolve(code ?? signal)));
  const ready = new Promise((resolve, reject) => {
    let out = "";
    dev.stdout.on("data", (chunk) => {
      out += chunk;
      for (const line of out.split("\n").slice(0, -1)) {
        try {
          const printed = JSON.parse(line);
          if (printed.READER_URL && printed.QUEUE_URL) resolve(printed);
        } catch {
          // not the env line
        }
      }
    });
    exited.then((code) => reject(new Error(`rewards dev exited (${code}) before it was ready`)));
    setTimeout(
      () => reject(new Error(`rewards dev not ready after ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
  });
  const writeLog = () => writeFileSync(devLog, Buffer.concat(log));
  return { dev, ready, exited, writeLog };
}

/** Polls READER_URL until it answers a 200 (a new reader's profile). */
async function untilReaderAnswers(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const answer = await fetch(`${url}/users/ready-probe`);
      if (answer.status === 200) return;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops dev as Ctrl-C does (SIGKILL after 30 s); says so when it did not stop cleanly. */
async function stop({ dev, exited }) {
  if (dev.exitCode === null && dev.signalCode === null) {
    dev.kill("SIGINT");
    const timer = setTimeout(() => dev.kill("SIGKILL"), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    if (code !== 0) say(`rewards dev stopped with ${code}`);
  }
}

setUp();
const running = startDev();
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    stop(running).then(() => process.exit(130));
  });
let code = 1;
try {
  const devEnv = await running.ready;
  await untilReaderAnswers(devEnv.READER_URL);
  say(`rewards dev is ready (${seconds()}): READER_URL ${devEnv.READER_URL}, QUEUE_URL ${devEnv.QUEUE_URL}`);
  const pytest = spawn(
    python,
    ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-ra", ...process.argv.slice(2)],
    {
      cwd: join(root, "clients", "python"),
      stdio: "inherit",
      env: {
        ...process.env,
        ...devEnv,
        REWARDS_DEV_ENV: JSON.stringify(devEnv),
        REWARDS_REQUIRE_DEV: "1",
        PYTHONDONTWRITEBYTECODE: "1",
      },
    },
  );
  code = await new Promise((resolve) => pytest.on("exit", (status) => resolve(status ?? 1)));
} catch (error) {
  say(error.message);
} finally {
  await stop(running);
  running.writeLog();
}
say(`pytest exited ${code} (${seconds()} in all; rewards dev's log: ${devLog})`);
process.exit(code);
