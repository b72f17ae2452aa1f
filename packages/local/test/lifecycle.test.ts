import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childrenOf, eventuallyClosed, isListening, portOf } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { startLocalStack } from "../src";

describe("local stack lifecycle", () => {
  it("stop() closes both ports and leaves no child process", async () => {
    const stack = await startLocalStack();
    const ports = [portOf(stack.endpoints.sqs), portOf(stack.endpoints.dynamodb)];
    expect(await Promise.all(ports.map(isListening))).toEqual([true, true]);
    expect(childrenOf(process.pid, "dynamodb_server.py")).toHaveLength(1);
    await stack.stop();
    expect(await Promise.all(ports.map(isListening))).toEqual([false, false]);
    expect(childrenOf(process.pid, "dynamodb_server.py")).toEqual([]);
  });

  it("runs several stacks side by side", async () => {
    const stacks = await Promise.all([startLocalStack(), startLocalStack(), startLocalStack()]);
    const ports = stacks.flatMap((s) => [portOf(s.endpoints.sqs), portOf(s.endpoints.dynamodb)]);
    expect(new Set(ports).size).toBe(6);
    await Promise.all(stacks.map((s) => s.stop()));
    expect(childrenOf(process.pid, "dynamodb_server.py")).toEqual([]);
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
