import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { readLocalConfig } from "./localConfig";
import { LocalStackError } from "./localStackError";
import { packageRoot } from "./packageRoot";
import type { RunningService } from "./startSqs";

const LAUNCHER = join(packageRoot("@rewards/local"), "moto", "dynamodb_server.py");
/** Where `scripts/bootstrap.mjs` puts moto when the system Python lacks it (the repository's root). */
const PROJECT_VENV_PYTHON = join(packageRoot("@rewards/local"), "..", "..", ".venv", "bin", "python");
/** The launcher's exit code for "moto is missing or the wrong version". */
const EXIT_MOTO_MISSING = 3;
const START_TIMEOUT_MS = 20_000;

const MOTO_INSTALL_HINT =
  "install it with `pip install 'moto[server]==5.2.1'` or run `node scripts/bootstrap.mjs`, which puts it in .venv/";

/** REWARDS_PYTHON, else the project's .venv, else python3 on the PATH. */
export function pythonForMoto(env: NodeJS.ProcessEnv = process.env): string {
  const configured = readLocalConfig(env).REWARDS_PYTHON;
  if (configured) return configured;
  return existsSync(PROJECT_VENV_PYTHON) ? PROJECT_VENV_PYTHON : "python3";
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Belt and braces: the launcher also exits when its stdin closes, which covers a parent
 * killed with SIGKILL; this covers a normal exit that skipped stop().
 */
function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
}

export interface DynamoOptions {
  python?: string;
  /** How long a ClientRequestToken is remembered (AWS: 10 minutes); shorter in the self-test. */
  tokenTtlSeconds?: number;
}

/** moto's DynamoDB, patched (see moto/dynamodb_server.py), as a child on an ephemeral port. */
export async function startDynamo(options: DynamoOptions = {}): Promise<RunningService> {
  const python = options.python ?? pythonForMoto();
  const child = spawn(python, [LAUNCHER], {
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      PYTHONUNBUFFERED: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      ...(options.tokenTtlSeconds !== undefined
        ? { REWARDS_DYNAMODB_TOKEN_TTL_SECONDS: String(options.tokenTtlSeconds) }
        : {}),
    },
  });
  running.add(child);
  killAllOnExit();
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new LocalStackError(
          "moto_failed",
          `moto did not start within ${START_TIMEOUT_MS / 1000} s: ${stderr.trim()}`,
        ),
      );
    }, START_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(
        new LocalStackError(
          "moto_missing",
          `cannot run ${python} (${error.message}): DynamoDB runs on moto; ${MOTO_INSTALL_HINT}`,
        ),
      );
    });
    void exited.then((code) => {
      clearTimeout(timer);
      const detail = stderr.trim().split("\n").at(-1) ?? "";
      reject(
        code === EXIT_MOTO_MISSING
          ? new LocalStackError("moto_missing", `${detail} (python: ${python}); ${MOTO_INSTALL_HINT}`)
          : new LocalStackError("moto_failed", `moto exited with code ${code} before it listened: ${detail}`),
      );
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new LocalStackError("moto_failed", `unexpected first line from the moto launcher: ${line}`));
      }
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout?.resume();

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
