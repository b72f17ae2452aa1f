import { fileURLToPath } from "node:url";
import { waitFor } from "@rewards/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createFunctionRuntime,
  FunctionError,
  type FunctionRuntime,
} from "../src/functionRuntime/functionRuntime";

const ENTRY = fileURLToPath(new URL("./fixtures/echoFunction.mjs", import.meta.url));
interface Echo {
  pid: number;
  env: Record<string, string>;
  remainingMs: number;
  functionName: string;
  echo?: unknown;
}

const started: FunctionRuntime[] = [];
function runtime(environment: Record<string, string> = { ONLY: "this" }, timeoutMs = 5000) {
  const created = createFunctionRuntime({
    entry: ENTRY,
    environment,
    functionName: "echo",
    memoryMb: 128,
    timeoutMs,
    onStdout: () => {},
    onStderr: () => {},
  });
  started.push(created);
  return created;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.stop()));
});

describe("the local function runtime", () => {
  it("runs the function in a process of its own that sees only the function's environment", async () => {
    const echo = (await runtime().invoke({ echo: 1 })) as Echo;
    expect(echo.pid).not.toBe(process.pid);
    expect(echo.echo).toBe(1);
    expect(echo.functionName).toBe("echo");
    expect(echo.remainingMs).toBeGreaterThan(4000);
    expect(echo.remainingMs).toBeLessThanOrEqual(5000);
    // Nothing of this process's environment (PATH, HOME, vitest's) leaks in.
    expect(Object.keys(echo.env).filter((name) => name !== "ONLY" && !name.startsWith("NODE_"))).toEqual([]);
  });

  it("reuses a warm environment, and gives concurrent invocations environments of their own", async () => {
    const functions = runtime();
    const first = (await functions.invoke({})) as Echo;
    const second = (await functions.invoke({})) as Echo;
    expect(second.pid).toBe(first.pid);
    const together = (await Promise.all([
      functions.invoke({ sleepMs: 200 }),
      functions.invoke({ sleepMs: 200 }),
    ])) as Echo[];
    expect(new Set(together.map((e) => e.pid)).size).toBe(2);
    expect(functions.stats().coldStarts).toBe(2);
  });

  it("kills an invocation at its timeout (Sandbox.Timedout); the next one starts cold", async () => {
    const functions = runtime({}, 300);
    const warm = (await functions.invoke({})) as Echo;
    const timedOut = functions.invoke({ sleepMs: 5000 });
    await expect(timedOut).rejects.toThrow(
      new FunctionError("Sandbox.Timedout", "Task timed out after 0.30 seconds"),
    );
    expect(await waitFor(() => !isAlive(warm.pid), { timeoutMs: 2000 })).toBe(true);
    const next = (await functions.invoke({})) as Echo;
    expect(next.pid).not.toBe(warm.pid);
  });

  it("reports a module that throws while loading as Runtime.InitError, at warm() and at invoke()", async () => {
    const functions = runtime({ FAIL_INIT: "1" });
    const expected = new FunctionError("Runtime.InitError", "TypeError: init refused: FAIL_INIT is set");
    await expect(functions.warm()).rejects.toThrow(expected);
    await expect(functions.invoke({})).rejects.toThrow(expected);
  });

  it("the handler's own error is the invocation's, and its environment stays warm", async () => {
    const functions = runtime();
    const warm = (await functions.invoke({})) as Echo;
    await expect(functions.invoke({ throw: "no" })).rejects.toThrow(new FunctionError("RangeError", "no"));
    expect(((await functions.invoke({})) as Echo).pid).toBe(warm.pid);
  });

  it("stop() ends every environment", async () => {
    const functions = runtime();
    const { pid } = (await functions.invoke({})) as Echo;
    await functions.stop();
    expect(isAlive(pid)).toBe(false);
  });
});
