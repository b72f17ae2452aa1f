import type { Io } from "../src/runtime/io";

/** An Io that keeps what a command says, for running the program in-process. */
export function memoryIo(): Io & { stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  return {
    out: async (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    progress: () => ({ onProgress: undefined, stop: () => {} }),
    logger: async () => {
      throw new Error("no logger in memoryIo");
    },
    untilSignal: () => new Promise(() => {}),
    stdin: process.stdin,
    columns: 80,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
