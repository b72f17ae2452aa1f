import { execFileSync, spawn } from "node:child_process";
import { connect } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startLocalStack } from "../src";

function portOf(endpoint: string): number {
  return Number(new URL(endpoint).port);
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function eventuallyClosed(port: number, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!(await isListening(port))) return true;
    await delay(100);
  }
  return false;
}

function childrenOf(pid: number): string[] {
  try {
    return execFileSync("ps", ["-o", "args=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.includes("dynamodb_server.py"));
  } catch {
    return []; // ps exits 1 when there is no such process
  }
}

describe("local stack lifecycle", () => {
  it("stop() closes both ports and leaves no child process", async () => {
    const stack = await startLocalStack();
    const ports = [portOf(stack.endpoints.sqs), portOf(stack.endpoints.dynamodb)];
    expect(await Promise.all(ports.map(isListening))).toEqual([true, true]);
    expect(childrenOf(process.pid)).toHaveLength(1);
    await stack.stop();
    expect(await Promise.all(ports.map(isListening))).toEqual([false, false]);
    expect(childrenOf(process.pid)).toEqual([]);
  });

  it("runs several stacks side by side", async () => {
    const stacks = await Promise.all([startLocalStack(), startLocalStack(), startLocalStack()]);
    const ports = stacks.flatMap((s) => [portOf(s.endpoints.sqs), portOf(s.endpoints.dynamodb)]);
    expect(new Set(ports).size).toBe(6);
    await Promise.all(stacks.map((s) => s.stop()));
    expect(childrenOf(process.pid)).toEqual([]);
  });

  it.each(["SIGKILL", "SIGTERM", "SIGINT"] as const)(
    "the moto child dies with its parent (%s)",
    async (signal) => {
      const victim = spawn(
        process.execPath,
        ["--import", "tsx", fileURLToPath(new URL("./fixtures/holdStack.ts", import.meta.url))],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      const line = await new Promise<string>((resolve) =>
        victim.stdout?.once("data", (chunk) => resolve(String(chunk))),
      );
      const endpoints = JSON.parse(line) as { dynamodb: string };
      expect(await isListening(portOf(endpoints.dynamodb))).toBe(true);
      victim.kill(signal);
      expect(await eventuallyClosed(portOf(endpoints.dynamodb))).toBe(true);
    },
  );
});
