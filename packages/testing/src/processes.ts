import { execFileSync } from "node:child_process";
import { connect } from "node:net";
import { waitFor } from "./waitFor";

/** `pid args` of the direct children of `pid` whose command line contains `match`. */
export function childrenOf(pid: number, match = ""): string[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && line.includes(match));
  } catch {
    return []; // ps exits 1 when there is no such process
  }
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export const portOf = (endpoint: string): number => Number(new URL(endpoint).port);

export async function eventuallyClosed(port: number, timeoutMs = 5000): Promise<boolean> {
  return waitFor(async () => !(await isListening(port)), { timeoutMs });
}
