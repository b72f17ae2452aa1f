import { execFile, spawn } from "node:child_process";
import { REWARDS_BIN, waitFor } from "@rewards/testing";
import { describe, expect, it } from "vitest";

/** The processes left in a process group (pgrep exits 1 when there are none). */
function processesInGroup(pgid: number): Promise<string> {
  return new Promise((resolve) =>
    execFile("pgrep", ["-g", String(pgid)], (_error, stdout) => resolve(stdout.trim())),
  );
}

describe("the rewards bin", () => {
  it.each([
    ["the bundle", {}],
    ["the source through tsx", { REWARDS_FROM_SOURCE: "1" }],
  ])("prints its version from %s and leaves no process behind in its group", async (_name, env) => {
    const child = spawn(process.execPath, [REWARDS_BIN, "--version"], {
      detached: true,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: "0.1.0\n" });
    // tsx's esbuild service may still be on its way out when the bin's own process has exited:
    // "left behind" means still there a few seconds later, not at the instant of exit.
    expect(
      await waitFor(async () => (await processesInGroup(child.pid as number)) === "", { timeoutMs: 5_000 }),
    ).toBe(true);
  });
});
