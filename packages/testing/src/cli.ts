import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HANG_GUARD_MS } from "./hangGuard";

/**
 * The `rewards` bin as `npm install` links it at the workspace's root (what `npx rewards`
 * runs), so the tests run the command as a user does and import nothing of the CLI.
 */
export const REWARDS_BIN = fileURLToPath(new URL("../../../node_modules/.bin/rewards", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `rewards` command in a child process, as a user would. */
export function runCli(args: string[], env: Record<string, string>, stdin?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [REWARDS_BIN, ...args],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
        timeout: HANG_GUARD_MS,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** Starts `rewards <args>` and leaves it running; the caller signals and awaits it. */
export function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [REWARDS_BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The variables of `rewards dev`'s env block (its `export NAME=value` lines), as a shell pasting it gets them. */
export function exportedEnv(stdout: string): Record<string, string> {
  return Object.fromEntries(
    [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
}

/**
 * Every variable `rewards dev` prints (with its announcer, history writer, read API and page):
 * tests/devAndDemo.test.ts holds the command to this list, and packages/cli/test/env.test.ts
 * holds `rewards env` to undoing each in a shell pointed at a stage (exported with the stage's
 * value, unset, or a setting that points at nothing).
 */
export const DEV_ENV_VARIABLES = [
  "ANNOUNCER_CHECKPOINT_FILE",
  "ANNOUNCER_FAILURE_QUEUE_URL",
  "AWS_ACCESS_KEY_ID",
  "AWS_DEFAULT_REGION",
  "AWS_ENDPOINT_URL_DYNAMODB",
  "AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
  "AWS_ENDPOINT_URL_EVENTBRIDGE",
  "AWS_ENDPOINT_URL_SQS",
  "AWS_REGION",
  "AWS_SECRET_ACCESS_KEY",
  "BUS_NAME",
  "CONSUMER_QUEUE_URL",
  "DLQ_URL",
  "GRANTS_QUEUE_URL",
  "HISTORY_CHECKPOINT_FILE",
  "HISTORY_FAILURE_QUEUE_URL",
  "LOG_LEVEL",
  "QUEUE_URL",
  "READER_URL",
  "REWARDS_BOARD_SHARDS",
  "REWARDS_BOARD_WEEKS",
  "REWARDS_CONCURRENCY",
  "REWARDS_HISTORY_DAYS",
  "REWARDS_RULES_REFRESH_SECONDS",
  "SITE_URL",
  "TABLE_NAME",
] as const;
